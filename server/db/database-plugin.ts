/**
 * Opens the database at start (migrations applied, PGlite directory locked) and closes it when
 * the app closes. Feature plugins build their repositories from `app.db`.
 */
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { type Database, type Db, openDatabase } from './database.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The Drizzle handle; use it only to build a repository. */
    db: Db
    /** The open database: its kind, LISTEN/NOTIFY (PostgreSQL only) and pool, for readiness and metrics. */
    database: Database
  }
}

export const databasePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const database = await openDatabase(config)
    app.decorate('db', database.db)
    app.decorate('database', database)
    app.addHook('onClose', async () => {
      await database.close()
    })
  },
  { name: 'database' },
)
