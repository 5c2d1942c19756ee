/**
 * Opens the database the config names, applies the migrations and hands back a Drizzle handle
 * plus the one way to close it. PGlite directories are locked first: PGlite allows one process
 * per directory, and two writers lose data silently (docs/architecture.md, platform facts).
 */
import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import type pg from 'pg'
import type { Config } from '../config.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { openMemoryClone } from './memory-template.ts'
import { MIGRATIONS_FOLDER } from './migrations-folder.ts'
import type { Notifications } from './notifications.ts'
import { PGLITE_EXTENSIONS } from './pglite-extensions.ts'
import * as schema from './schema.ts'
import { startWalCheckpoints } from './wal-checkpoints.ts'

/** The Drizzle handle the repositories take; the same API over PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  db: Db
  kind: Config['database']['kind']
  /** LISTEN/NOTIFY between instances on a PostgreSQL server; null on PGlite (one process). */
  notifications: Notifications | null
  /** The PostgreSQL pool (metrics read its counts); null on PGlite. */
  pool: pg.Pool | null
  /** Closes the connection (and releases the data-directory lock); safe to call twice. */
  close: () => Promise<void>
}

export async function openDatabase(config: Pick<Config, 'database' | 'dataDir'>): Promise<Database> {
  const target = config.database
  switch (target.kind) {
    case 'memory': {
      const client = await openMemoryClone()
      return withClose(drizzlePglite({ client, schema }), 'memory', () => client.close())
    }
    case 'pglite': {
      await mkdir(config.dataDir, { recursive: true, mode: 0o700 })
      const release = await lockDataDir(config.dataDir)
      try {
        const client = new PGlite({ dataDir: target.dataDir, extensions: PGLITE_EXTENSIONS })
        await client.waitReady
        const db = drizzlePglite({ client, schema })
        await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER })
        const checkpoints = startWalCheckpoints(client)
        return withClose(db, 'pglite', async () => {
          checkpoints.stop()
          try {
            await client.close()
          } finally {
            await release()
          }
        })
      } catch (error) {
        await release()
        throw error
      }
    }
    case 'postgres': {
      // The PostgreSQL driver loads only here: the embedded default never pays for it.
      const [{ default: pgDriver }, { drizzle: drizzlePg }, { migrate: migratePg }, { openNotifications }] =
        await Promise.all([
          import('pg'),
          import('drizzle-orm/node-postgres'),
          import('drizzle-orm/node-postgres/migrator'),
          import('./notifications.ts'),
        ])
      const pool = new pgDriver.Pool({ connectionString: target.url, max: 10 })
      // An idle connection the server ends (restart, failover, admin) is dropped by the pool and
      // the next query opens a new one; unhandled, the pool's 'error' event would end the process.
      pool.on('error', () => undefined)
      try {
        const db = drizzlePg({ client: pool, schema })
        await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER })
        const notifications = await openNotifications(target.url, pool)
        const database = withClose(db, 'postgres', async () => {
          await notifications.close()
          await pool.end()
        })
        return { ...database, notifications, pool }
      } catch (error) {
        await pool.end()
        throw error
      }
    }
  }
}

function withClose(db: Db, kind: Database['kind'], close: () => Promise<void>): Database {
  let closing: Promise<void> | undefined
  return {
    db,
    kind,
    notifications: null,
    pool: null,
    close: () => {
      closing ??= close()
      return closing
    },
  }
}
