/**
 * An uploaded file's bytes (D104), kept so its reading can be retried and the file opened: stored
 * and read back in parts of UPLOAD_PART_BYTES, one statement a part, with the server's other work
 * taking turns between parts (turns.ts). The bytes cross as hex text, turned into bytes by the
 * database (`decode`/`encode`) and by Node (`Buffer`'s native hex): embedded PGlite's own bytea
 * conversion walks a value byte by byte in JavaScript, and one 5 MB file held the server's thread
 * for seconds (tens of seconds for four at once on a loaded machine), with hundreds of MB of
 * garbage to collect after it.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { libraryUploads } from '../../db/schema.ts'
import { takingTurns } from '../reading/turns.ts'

/** The bytes of one part: 512 KB of hex a statement, a few milliseconds of the database's time. */
export const UPLOAD_PART_BYTES = 256 * 1024

type Executor = Pick<Db, 'insert' | 'select'>

/**
 * Stores the file's bytes as parts `from` to `to` (exclusive; all by default) of its library row,
 * each in a statement of its own (in the caller's transaction when it passes one).
 */
export async function storeUploadBytes(
  db: Executor,
  libraryDocumentId: string,
  bytes: Uint8Array,
  { from = 0, to = uploadParts(bytes.length) }: { from?: number; to?: number } = {},
): Promise<void> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const turns = takingTurns()
  for (let part = from; part < to; part++) {
    const piece = buffer.subarray(part * UPLOAD_PART_BYTES, (part + 1) * UPLOAD_PART_BYTES)
    await db
      .insert(libraryUploads)
      .values({ libraryDocumentId, part, content: sql`decode(${piece.toString('hex')}, 'hex')` })
    await turns.pause()
  }
}

/** The parts a file of `size` bytes is stored in (one, even for none). */
export const uploadParts = (size: number) => Math.max(1, Math.ceil(size / UPLOAD_PART_BYTES))

/**
 * The file's bytes, its parts written in order straight into one buffer; null when none are
 * stored, or when the file left the library while it was read (its parts go with its row).
 */
export async function readUploadBytes(db: Executor, libraryDocumentId: string): Promise<Uint8Array | null> {
  const parts = await db
    .select({
      part: libraryUploads.part,
      bytes: sql<number>`length(${libraryUploads.content})`.mapWith(Number),
    })
    .from(libraryUploads)
    .where(eq(libraryUploads.libraryDocumentId, libraryDocumentId))
    .orderBy(asc(libraryUploads.part))
  if (parts.length === 0) return null
  // Its own memory (not Node's shared pool for small buffers): the reader process is sent the bytes.
  const file = new Uint8Array(parts.reduce((sum, p) => sum + p.bytes, 0))
  const writer = Buffer.from(file.buffer)
  const turns = takingTurns()
  let at = 0
  for (const { part } of parts) {
    const [row] = await db
      .select({ hex: sql<string>`encode(${libraryUploads.content}, 'hex')` })
      .from(libraryUploads)
      .where(and(eq(libraryUploads.libraryDocumentId, libraryDocumentId), eq(libraryUploads.part, part)))
    if (!row) return null
    at += writer.write(row.hex, at, 'hex')
    await turns.pause()
  }
  return file
}
