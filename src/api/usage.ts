/** The usage call (contracts/usage.ts): the dep of the usage machine. */
import { type UsageReport, usageEndpoints } from '#contracts/usage.ts'
import type { Http } from './client.ts'

export type UsageApi = ReturnType<typeof createUsageApi>

export function createUsageApi(http: Http) {
  return {
    async usage(days: number): Promise<UsageReport> {
      return (await http(usageEndpoints.usage, { query: { days: String(days) } })).data
    },
  }
}
