/**
 * Hybrid retrieval's vector side: passages embedded through any OpenAI-compatible /embeddings
 * endpoint (EMBEDDING_MODEL), stored with pgvector, searched by cosine distance within the
 * user's own passages. Everything here is optional: without a model, or on a PostgreSQL server
 * without the pgvector extension (one log line), retrieval stays keyword-only and nothing fails.
 *
 * Embedding is a resumable step of its own (`embedMissingChunks`: the user's passages with no
 * vector for the current model, in batches), so ingest, a background job or the start of the
 * server can run it, and an interrupted run simply continues next time. Vectors are kept per
 * model: after a model change the old ones are dropped and the passages embedded again in the
 * background, while retrieval uses whatever vectors of the current model exist.
 */
import { sql } from 'drizzle-orm'
import type OpenAI from 'openai'
import type { EmbeddingConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { type PassageRow, toPassage } from '../documents/index/passage-search.ts'
import type { Passage } from '../documents/index/passages.ts'
import { loadOpenAI } from './llm.ts'

/** Passages per /embeddings request. */
export const EMBEDDING_BATCH = 64
/** Characters of a passage sent to be embedded (passages are ~800; headings add a little). */
const EMBEDDING_INPUT_CHARS = 2000

export type Embedder = { model: string; embed(texts: string[]): Promise<number[][]> }

export function createEmbedder(config: EmbeddingConfig): Embedder {
  // The client library loads on first use, as for answers (start-up time, D42).
  let client: OpenAI | undefined
  return {
    model: config.model,
    async embed(texts) {
      const { default: OpenAIClient } = await loadOpenAI()
      client ??= new OpenAIClient({
        baseURL: config.baseUrl,
        apiKey: config.apiKey || 'not-needed',
        timeout: config.timeoutMs,
        // The client retries connection failures, 408/409/429 and 5xx with backoff.
        maxRetries: 3,
      })
      const response = await client.embeddings.create({
        model: config.model,
        input: texts,
        encoding_format: 'float',
      })
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding)
      if (vectors.length !== texts.length) throw new Error('The embedding endpoint returned too few vectors')
      return vectors
    },
  }
}

/** Per database handle: whether the vector table is ready (created once, on first use). */
const stores = new WeakMap<Db, Promise<boolean>>()

/**
 * Creates the pgvector extension and the `chunk_embeddings` table when they are missing; false
 * (and one warning) when the server has no pgvector. Not a migration: it runs only when an
 * embedding model is configured, and a PostgreSQL server without pgvector must still migrate.
 * The column has no fixed dimension, so any model fits; search is exact within one user's
 * vectors of one model (no approximate index).
 */
export function ensureVectorStore(db: Db, warn: (message: string) => void = () => {}): Promise<boolean> {
  let ready = stores.get(db)
  if (!ready) {
    ready = (async () => {
      try {
        await db.execute(sql`create extension if not exists vector`)
        await db.execute(sql`
          create table if not exists chunk_embeddings (
            chunk_id uuid not null references document_chunks(id) on delete cascade,
            user_id uuid not null references users(id) on delete cascade,
            model text not null,
            embedding vector not null,
            primary key (chunk_id, model)
          )`)
        await db.execute(
          sql`create index if not exists chunk_embeddings_user_id_model_idx on chunk_embeddings (user_id, model)`,
        )
        return true
      } catch (error) {
        // Drizzle wraps the driver's error ("Failed query: …"); the database's own words are in `cause`.
        const reason = ((error as { cause?: Error }).cause ?? (error as Error)).message
        warn(
          `Hybrid retrieval is off: the pgvector extension is not available on this database (${reason}); retrieval stays keyword-only.`,
        )
        return false
      }
    })()
    stores.set(db, ready)
  }
  return ready
}

const literal = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`

/**
 * Embeds the passages that have no vector for `embedder.model` (one user's, or everyone's), in
 * batches of EMBEDDING_BATCH; returns how many it embedded. Each batch is stored as it arrives,
 * so a failure (after the client's retries) loses nothing done so far and the next run resumes.
 */
export async function embedMissingChunks(db: Db, embedder: Embedder, userId?: string): Promise<number> {
  let done = 0
  for (;;) {
    const rows = await queryRows<{ id: string; user_id: string; heading: string | null; text: string }>(
      db,
      sql`
      select c.id, c.user_id, c.heading, c.text from document_chunks c
      where (${userId ?? null}::uuid is null or c.user_id = ${userId ?? null}::uuid)
        and not exists (select 1 from chunk_embeddings e where e.chunk_id = c.id and e.model = ${embedder.model})
      order by c.id
      limit ${EMBEDDING_BATCH}`,
    )
    if (rows.length === 0) return done
    const vectors = await embedder.embed(
      rows.map((r) => `${r.heading ? `${r.heading}\n` : ''}${r.text}`.slice(0, EMBEDDING_INPUT_CHARS)),
    )
    const values = rows.map(
      (r, i) =>
        sql`(${r.id}::uuid, ${r.user_id}::uuid, ${embedder.model}, ${literal(vectors[i] ?? [])}::vector)`,
    )
    // A chunk replaced meanwhile is gone: its row would break the foreign key, so only live ones.
    await db.execute(sql`
      insert into chunk_embeddings (chunk_id, user_id, model, embedding)
      select v.chunk_id, v.user_id, v.model, v.embedding
      from (values ${sql.join(values, sql`, `)}) as v(chunk_id, user_id, model, embedding)
      where exists (select 1 from document_chunks c where c.id = v.chunk_id)
      on conflict do nothing`)
    done += rows.length
  }
}

/** Drops the vectors of every other model (after EMBEDDING_MODEL changed). */
export async function forgetOtherModels(db: Db, model: string): Promise<void> {
  await db.execute(sql`delete from chunk_embeddings where model <> ${model}`)
}

/**
 * The user's `limit` passages nearest the query vector (cosine), best first; only the user's, and
 * only those of `documentIds` when given (a conversation's scope).
 */
export async function vectorSearch(
  db: Db,
  userId: string,
  model: string,
  query: number[],
  limit: number,
  documentIds: readonly string[] | null = null,
): Promise<Passage[]> {
  const inScope =
    documentIds === null ? sql`true` : sql`c.document_id = any(${sql.param([...documentIds])}::uuid[])`
  const rows = await queryRows<PassageRow>(
    db,
    sql`
    select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.heading, d.link, c.text,
      c.language::text as language, 1 - (e.embedding <=> ${literal(query)}::vector) as rank
    from chunk_embeddings e
    join document_chunks c on c.id = e.chunk_id
    join documents d on d.id = c.document_id
    where e.user_id = ${userId} and e.model = ${model} and ${inScope}
    order by e.embedding <=> ${literal(query)}::vector, c.id
    limit ${limit}`,
  )
  return rows.map(toPassage)
}

/** Reciprocal rank fusion's constant: the usual 60. */
export const RRF_K = 60

/** Reciprocal rank fusion of rankings (best first): each passage scores Σ 1 / (RRF_K + rank). */
export function fuse(rankings: Passage[][]): Passage[] {
  const fused = new Map<string, Passage>()
  for (const ranking of rankings)
    ranking.forEach((p, i) => {
      const score = 1 / (RRF_K + i + 1)
      const seen = fused.get(p.chunkId)
      fused.set(p.chunkId, { ...(seen ?? p), rank: (seen?.rank ?? 0) + score })
    })
  return [...fused.values()].sort((a, b) => b.rank - a.rank || a.chunkId.localeCompare(b.chunkId))
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
