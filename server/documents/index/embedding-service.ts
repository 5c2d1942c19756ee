/**
 * Embedding passages, the index's vector half (D109): a resumable step of its own
 * (`embedMissingChunks`: the user's passages with no vector for the current model, in batches), so
 * ingest, a background job or the start of the server can run it, and an interrupted run simply
 * continues next time. Vectors are kept per model: after a model change the old ones are dropped
 * and the passages embedded again in the background, while retrieval uses whatever vectors of the
 * current model exist. The model's client is injected (an Embedder: answering/embedder.ts).
 */
import type { Db } from '../../db/database.ts'
import { ensureVectorStore, passagesWithoutVectors, storeVectors } from './vectors-repository.ts'

/** Passages per /embeddings request. */
export const EMBEDDING_BATCH = 64
/** Characters of a passage sent to be embedded (passages are ~800; headings add a little). */
const EMBEDDING_INPUT_CHARS = 2000

export type Embedder = { model: string; embed(texts: string[]): Promise<number[][]> }

/**
 * Embeds the passages that have no vector for `embedder.model` (one user's, or everyone's), in
 * batches of EMBEDDING_BATCH; returns how many it embedded. Each batch is stored as it arrives,
 * so a failure (after the client's retries) loses nothing done so far and the next run resumes.
 */
export async function embedMissingChunks(db: Db, embedder: Embedder, userId?: string): Promise<number> {
  let done = 0
  for (;;) {
    const rows = await passagesWithoutVectors(db, embedder.model, EMBEDDING_BATCH, userId)
    if (rows.length === 0) return done
    const vectors = await embedder.embed(
      rows.map((r) => `${r.heading ? `${r.heading}\n` : ''}${r.text}`.slice(0, EMBEDDING_INPUT_CHARS)),
    )
    await storeVectors(db, embedder.model, rows, vectors)
    done += rows.length
  }
}

export type EmbeddingService = {
  embedder: Embedder
  /** Whether vectors can be stored and searched here (pgvector present). */
  ready(): Promise<boolean>
  /** Embeds the user's passages that have none for the current model, in the background (one run per user at a time). */
  schedule(userId?: string): Promise<void>
}

/**
 * The embedding work of one server: the vector store, a single-flight background run per user,
 * and, at start, the re-embedding of every passage after a model change.
 */
export function createEmbeddingService(
  db: Db,
  embedder: Embedder,
  log: { warn: (message: string) => void; info: (message: string) => void },
): EmbeddingService {
  const running = new Map<string, Promise<void>>()
  const ready = () => ensureVectorStore(db, log.warn)
  const schedule = (userId?: string): Promise<void> => {
    const key = userId ?? '*'
    const current = running.get(key)
    if (current) return current
    const run = (async () => {
      try {
        if (!(await ready())) return
        const n = await embedMissingChunks(db, embedder, userId)
        if (n > 0) log.info(`Embedded ${n} passages with ${embedder.model}`)
      } catch (error) {
        log.warn(`Embedding passages failed (they are retried on the next run): ${(error as Error).message}`)
      } finally {
        running.delete(key)
      }
    })()
    running.set(key, run)
    return run
  }
  return { embedder, ready, schedule }
}
