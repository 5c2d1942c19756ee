import { fileURLToPath } from 'node:url'

/** drizzle-kit writes here (drizzle.config.ts `out`); both migrators read from here at start. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url))
