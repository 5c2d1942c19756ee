/**
 * The Google emulator as a process of its own (`npm run google:emulator`), for e2e runs and for
 * trying the app by hand: listens on GOOGLE_EMULATOR_PORT (default 4010) and prints the
 * environment the DocChat server needs to use it.
 */
import { createGoogleEmulator } from './emulator.ts'
import { FIXTURE_ACCOUNTS } from './fixtures.ts'

const port = Number(process.env.GOOGLE_EMULATOR_PORT ?? 4010)
const maxPageSize = process.env.GOOGLE_EMULATOR_MAX_PAGE_SIZE
const emulator = await createGoogleEmulator({
  port,
  ...(process.env.GOOGLE_EMULATOR_HOST ? { host: process.env.GOOGLE_EMULATOR_HOST } : {}),
  ...(maxPageSize ? { maxPageSize: Number(maxPageSize) } : {}),
  ...(process.env.GOOGLE_EMULATOR_LOG === '1' ? { log: (line) => console.log(line) } : {}),
})

console.log(`Google emulator listening on ${emulator.url}`)
console.log(
  `GOOGLE_EMULATOR_URL=${emulator.url} GOOGLE_CLIENT_ID=${emulator.clientId} GOOGLE_CLIENT_SECRET=${emulator.clientSecret}`,
)
console.log(`Accounts: ${FIXTURE_ACCOUNTS.map((a) => a.email).join(', ')}`)
console.log(`Control: ${emulator.url}/__emulator (see tests/fakes/google/README.md)`)

let closing = false
async function shutdown() {
  if (closing) return
  closing = true
  await emulator.close()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
