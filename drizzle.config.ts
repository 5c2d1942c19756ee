import { defineConfig } from 'drizzle-kit'

// One schema, one migration history, applied at start on PGlite and on PostgreSQL (server/db/).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
})
