/** One client function per sharing endpoint (contracts/sharing.ts); exports are links, not calls. */
import {
  type ExportFormat,
  type Share,
  type SharedConversation,
  sharingEndpoints,
} from '#contracts/sharing.ts'
import type { Http } from './client.ts'
import { fileUrl } from './file-url.ts'

export function createSharingApi(http: Http) {
  return {
    async shareConversation(id: string): Promise<Share> {
      return (await http(sharingEndpoints.shareConversation, { params: { id } })).data
    },
    async unshareConversation(id: string): Promise<void> {
      await http(sharingEndpoints.unshareConversation, { params: { id } })
    },
    async listShares(): Promise<Share[]> {
      return (await http(sharingEndpoints.listShares)).data
    },
    async getSharedConversation(token: string): Promise<SharedConversation> {
      return (await http(sharingEndpoints.getSharedConversation, { params: { token } })).data
    },
  }
}

export type SharingApi = ReturnType<typeof createSharingApi>

/** The download link of a conversation's export, times in the reader's own time zone. */
export function exportUrl(id: string, format: ExportFormat, timeZone?: string): string {
  return fileUrl(sharingEndpoints.exportConversation, { id }, { format, ...(timeZone ? { timeZone } : {}) })
}
