/**
 * `DATABASE_URL=memory:` opens a clone of one migrated template database instead of running
 * initdb each time: initdb costs ~3 s and ~700 MB, a clone ~0.4 s (docs/architecture.md, platform facts). The template is
 * kept in this process and, as a tarball keyed by the PGlite version and the migrations' content,
 * in the OS temp directory, so every test file (each in its own worker) pays initdb once per
 * machine rather than once per file.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { MIGRATIONS_FOLDER } from './migrations-folder.ts'
import { PGLITE_EXTENSIONS } from './pglite-extensions.ts'

let template: Promise<Blob> | undefined

/** A fresh, migrated, in-memory PGlite holding no rows of its own. */
export async function openMemoryClone(): Promise<PGlite> {
  template ??= loadOrCreateTemplate().catch((error: unknown) => {
    template = undefined
    throw error
  })
  const client = new PGlite({ loadDataDir: await template, extensions: PGLITE_EXTENSIONS })
  await client.waitReady
  // A no-op when the template is current (a few ms); a safety net if the cache key ever misses.
  await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER })
  return client
}

async function loadOrCreateTemplate(): Promise<Blob> {
  const file = join(tmpdir(), `docchat-pglite-template-${await templateKey()}.tar`)
  const cached = await readFile(file).catch(() => undefined)
  if (cached) return new Blob([cached])

  const client = new PGlite({ extensions: PGLITE_EXTENSIONS })
  try {
    await client.waitReady
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER })
    const dump = await client.dumpDataDir('none')
    await saveAtomically(file, new Uint8Array(await dump.arrayBuffer()))
    return dump
  } finally {
    await client.close()
  }
}

/** Written aside then renamed: a concurrent reader sees the whole tarball or none. */
async function saveAtomically(file: string, bytes: Uint8Array): Promise<void> {
  const partial = `${file}.${process.pid}.partial`
  try {
    await writeFile(partial, bytes)
    await rename(partial, file)
  } catch {
    // The cache only saves time; a read-only temp directory must not fail the database open.
    await rm(partial, { force: true })
  }
}

async function templateKey(): Promise<string> {
  const hash = createHash('sha256')
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  hash.update(await readFile(join(dirname(pgliteEntry), '..', 'package.json')))
  const entries = await readdir(MIGRATIONS_FOLDER, { recursive: true })
  for (const entry of entries.sort()) {
    if (!entry.endsWith('.sql') && !entry.endsWith('_journal.json')) continue
    hash.update(entry)
    hash.update(await readFile(join(MIGRATIONS_FOLDER, entry)))
  }
  return hash.digest('hex').slice(0, 16)
}
