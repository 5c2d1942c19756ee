/**
 * Hybrid retrieval's vector side, as stored: passages' vectors in pgvector's `chunk_embeddings`,
 * kept per model, searched by cosine distance within the user's own passages. Everything here is
 * optional: on a PostgreSQL server without the pgvector extension (one log line) retrieval stays
 * keyword-only and nothing fails. What computes the vectors is injected (embedding-service.ts);
 * the model's client is the assistant's (answering/embedder.ts).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import { type Passage, type PassageRow, toPassage } from './passages.ts'

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

/** A passage with no vector yet for some model: what is sent to be embedded. */
export type UnembeddedPassage = { id: string; user_id: string; heading: string | null; text: string }

/** Up to `limit` passages (one user's, or everyone's) with no vector for `model`, in id order. */
export function passagesWithoutVectors(
  db: Db,
  model: string,
  limit: number,
  userId?: string,
): Promise<UnembeddedPassage[]> {
  return queryRows<UnembeddedPassage>(
    db,
    sql`
      select c.id, c.user_id, c.heading, c.text from document_chunks c
      where (${userId ?? null}::uuid is null or c.user_id = ${userId ?? null}::uuid)
        and not exists (select 1 from chunk_embeddings e where e.chunk_id = c.id and e.model = ${model})
      order by c.id
      limit ${limit}`,
  )
}

/** Stores one vector per passage (same order), for `model`. */
export async function storeVectors(
  db: Db,
  model: string,
  passages: readonly UnembeddedPassage[],
  vectors: readonly number[][],
): Promise<void> {
  const values = passages.map(
    (r, i) => sql`(${r.id}::uuid, ${r.user_id}::uuid, ${model}, ${literal(vectors[i] ?? [])}::vector)`,
  )
  // A chunk replaced meanwhile is gone: its row would break the foreign key, so only live ones.
  await db.execute(sql`
      insert into chunk_embeddings (chunk_id, user_id, model, embedding)
      select v.chunk_id, v.user_id, v.model, v.embedding
      from (values ${sql.join(values, sql`, `)}) as v(chunk_id, user_id, model, embedding)
      where exists (select 1 from document_chunks c where c.id = v.chunk_id)
      on conflict do nothing`)
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
