import { rmSync } from 'node:fs'
import path from 'node:path'
import { CONSUMER, PACT_DIR, PROVIDER } from './pact.ts'

// Pact merges into an existing file; start from nothing so a renamed or removed interaction
// cannot linger in the committed pact.
export default function setup(): void {
  rmSync(path.join(PACT_DIR, `${CONSUMER}-${PROVIDER}.json`), { force: true })
}
