/**
 * The BM25 statistics the index keeps per person as passages go in and out (D14, D95): lexemes
 * and languages with how many passages and documents hold them (retrieval_terms,
 * retrieval_languages), the totals (retrieval_totals), and the parts of a large document already
 * counted (indexing_lexemes, D91). The counting itself runs inside the statements that write the
 * passages (passage-writes-repository.ts), as the CTEs built here; every function takes the
 * transaction it runs in.
 */
import { inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { indexingLexemes } from '../../db/schema.ts'

/** What a set of passages adds to (or takes from) one person's totals. */
export type Amount = { chunks: number; tokens: number }

/**
 * A person's lexeme of one language that no passage holds any more, or (lexeme '') a language
 * none of their passages is in any more.
 */
export type Emptied = { userId: string; language: string; lexeme: string }

/** Passages taken out: what they held, per person, and the lexemes no passage of that person holds any more. */
export type Forgotten = { byUser: Map<string, Amount>; emptied: Emptied[] }

export type ForgetRow = {
  kind: 'total' | 'empty'
  user_id: string
  language: string | null
  lexeme: string | null
  chunks: number
  tokens: number
}

export function forgotten(rows: readonly ForgetRow[]): Forgotten {
  const byUser = new Map<string, Amount>()
  const emptied: Emptied[] = []
  for (const row of rows) {
    if (row.kind === 'empty' && row.lexeme !== null && row.language !== null)
      emptied.push({ userId: row.user_id, language: row.language, lexeme: row.lexeme })
    else byUser.set(row.user_id, { chunks: Number(row.chunks), tokens: Number(row.tokens) })
  }
  return { byUser, emptied }
}

/**
 * One writer of each person's statistics at a time (until the transaction ends), taken in one
 * order: two transactions writing the same person's lexemes would otherwise lock their rows in
 * different orders on PostgreSQL.
 */
export async function lockStatistics(tx: Db, userIds: readonly string[]): Promise<void> {
  const users = [...new Set(userIds)].sort()
  if (users.length === 0) return
  await tx.execute(sql`
    select pg_advisory_xact_lock(hashtext('retrieval_terms'), hashtext(u))
    from (select unnest(${sql.param(users)}::text[]) as u order by 1) as users`)
}

/**
 * Three CTEs over the passages a statement inserted, deleted or re-indexed (the CTE `rows`, with
 * document_id, user_id, language, tsv and token_count): `counts`, per document and language, its
 * lexemes with how many of its passages hold them, and the language itself (lexeme '') with its
 * passages and words; `firsts`, those of the `parted` documents that no earlier part of the same
 * document counted yet in this `direction`, remembered in indexing_lexemes as they go; and
 * `joined`, each count with whether it is its document's first (`first`: always, for a document
 * written whole).
 */
export function countsOf(rows: 'ins' | 'old', direction: 1 | -1, partedIds: readonly string[]): SQL {
  const from = sql.raw(rows)
  const parted = sql.param([...partedIds])
  return sql`counts as (
      select ${from}.user_id, ${from}.document_id, ${from}.language, t.lexeme, count(*)::int as n, 0::float8 as tokens
      from ${from}, unnest(${from}.tsv) as t
      group by 1, 2, 3, 4
      union all
      select ${from}.user_id, ${from}.document_id, ${from}.language, '', count(*)::int, coalesce(sum(${from}.token_count), 0)::float8
      from ${from}
      group by 1, 2, 3
    ),
    firsts as (
      insert into ${indexingLexemes} (document_id, language, lexeme, direction)
      select document_id, language, lexeme, ${sql.raw(String(direction))} from counts
      where document_id = any(${parted}::uuid[])
      on conflict do nothing
      returning document_id, language, lexeme
    ),
    joined as (
      select c.*, (c.document_id <> all(${parted}::uuid[]) or f.lexeme is not null) as first
      from counts c left join firsts f
        on f.document_id = c.document_id and f.language = c.language and f.lexeme = c.lexeme
    )`
}

/**
 * The end of a statement that counts `joined`'s passages in (countsOf, direction 1): per
 * language and lexeme, chunk_count grows by the passages holding it and document_count by the
 * documents that hold it first; per language, the passages, documents and words.
 */
export const countIn = sql`terms as (
      insert into retrieval_terms as r (user_id, language, lexeme, chunk_count, document_count)
      select user_id, language, lexeme, sum(n)::int, (count(*) filter (where first))::int
      from joined where lexeme <> ''
      group by user_id, language, lexeme
      order by user_id, lexeme, language
      on conflict (user_id, lexeme, language) do update set
        chunk_count = r.chunk_count + excluded.chunk_count,
        document_count = r.document_count + excluded.document_count
    )
    insert into retrieval_languages as l (user_id, language, chunk_count, document_count, token_count)
    select user_id, language, sum(n)::int, (count(*) filter (where first))::int, sum(tokens)::bigint
    from joined where lexeme = ''
    group by user_id, language
    order by user_id, language
    on conflict (user_id, language) do update set
      chunk_count = l.chunk_count + excluded.chunk_count,
      document_count = l.document_count + excluded.document_count,
      token_count = l.token_count + excluded.token_count`

/**
 * The end of a statement that takes `joined`'s passages out (countsOf, direction -1), the mirror
 * of countIn; its rows: the lexemes and languages left without a passage ('empty'), and what the
 * passages of `old` held per person ('total').
 */
export const countOut = sql`per_lexeme as (
      select user_id, language, lexeme, sum(n)::int as n, (count(*) filter (where first))::int as docs,
        sum(tokens)::bigint as tokens
      from joined group by user_id, language, lexeme
    ),
    forgot as (
      update retrieval_terms r set chunk_count = r.chunk_count - d.n, document_count = r.document_count - d.docs
      from per_lexeme d
      where d.lexeme <> '' and r.user_id = d.user_id and r.language = d.language and r.lexeme = d.lexeme
      returning r.user_id, r.language, r.lexeme, r.chunk_count
    ),
    forgot_languages as (
      update retrieval_languages l set chunk_count = l.chunk_count - d.n, document_count = l.document_count - d.docs,
        token_count = l.token_count - d.tokens
      from per_lexeme d
      where d.lexeme = '' and l.user_id = d.user_id and l.language = d.language
      returning l.user_id, l.language, l.chunk_count
    )
    select 'empty' as kind, user_id, language::text as language, lexeme, 0 as chunks, 0::float8 as tokens
    from forgot where chunk_count <= 0
    union all
    select 'empty', user_id, language::text, '', 0, 0::float8 from forgot_languages where chunk_count <= 0
    union all
    select 'total', user_id, null, null, count(*)::int, coalesce(sum(token_count), 0)::float8 from old group by user_id`

/** Lexemes (and languages) whose last passage went: their rows go too, as if never counted. */
export async function dropEmptiedTerms(tx: Db, emptied: readonly Emptied[]): Promise<void> {
  if (emptied.length === 0) return
  const users = sql.param(emptied.map((e) => e.userId))
  const languages = sql.param(emptied.map((e) => e.language))
  const lexemes = sql.param(emptied.map((e) => e.lexeme))
  await tx.execute(sql`
    with e as (select * from unnest(${users}::uuid[], ${languages}::regconfig[], ${lexemes}::text[]) as e(user_id, language, lexeme)),
    terms as (
      delete from retrieval_terms r using e
      where e.lexeme <> '' and r.user_id = e.user_id and r.language = e.language and r.lexeme = e.lexeme
        and r.chunk_count <= 0
    )
    delete from retrieval_languages l using e
    where e.lexeme = '' and l.user_id = e.user_id and l.language = e.language and l.chunk_count <= 0`)
}

/** Forgets which lexemes the parts of these documents counted: their writes or removals are over. */
export async function endParts(tx: Db, documentIds: readonly string[]): Promise<void> {
  if (documentIds.length === 0) return
  await tx.delete(indexingLexemes).where(inArray(indexingLexemes.documentId, [...documentIds]))
}

/** Adds what changed to each person's totals (passages, documents, words), one statement for all. */
export async function addTotals(
  tx: Db,
  deltas: ReadonlyMap<string, { chunks: number; documents: number; tokens: number }>,
): Promise<void> {
  const rows = [...deltas].filter(([, d]) => d.chunks !== 0 || d.documents !== 0 || d.tokens !== 0)
  if (rows.length === 0) return
  await tx.execute(sql`
    insert into retrieval_totals (user_id, chunk_count, document_count, token_count)
    values ${sql.join(
      rows.map(
        ([userId, d]) => sql`(${userId}::uuid, ${d.chunks}::int, ${d.documents}::int, ${d.tokens}::bigint)`,
      ),
      sql`, `,
    )}
    on conflict (user_id) do update set
      chunk_count = retrieval_totals.chunk_count + excluded.chunk_count,
      document_count = retrieval_totals.document_count + excluded.document_count,
      token_count = retrieval_totals.token_count + excluded.token_count`)
}
