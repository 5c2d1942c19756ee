import path from 'node:path'
import { PactV4 } from '@pact-foundation/pact'

export const PACT_DIR = path.resolve(import.meta.dirname, '../../contracts/pacts')
export const CONSUMER = 'docchat-web'
export const PROVIDER = 'docchat-api'

/** One pact file for the whole API: every consumer test adds its interactions to it. */
export function createPact(): PactV4 {
  return new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: PACT_DIR, logLevel: 'warn' })
}
