/**
 * The footprint baseline: a bare process holding the same PGlite data directory as the server,
 * doing nothing but opening it and answering one query. Prints "ready" when open; SIGTERM closes.
 */
import { PGlite } from '@electric-sql/pglite'

const dataDir = process.env.PGLITE_DIR
if (!dataDir) throw new Error('PGLITE_DIR is not set')
const client = new PGlite({ dataDir })
await client.waitReady
await client.query('select count(*) from users')
console.log('ready')
process.on('SIGTERM', () => void client.close().then(() => process.exit(0)))
setInterval(() => undefined, 1 << 30)
