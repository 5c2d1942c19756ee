/**
 * Conversations (D70, D84): creating, renaming and scoping them, listing and searching them, and
 * the claim an answer is written under. Every read and write names the owner (`user_id`), so
 * another user's id behaves exactly like a missing one. Gathered with the messages' queries into
 * the chat repository (chat-repository.ts).
 */
import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm'
import { LAST_MESSAGE_PREVIEW_LENGTH, type ScopeDocument } from '#contracts/chat.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { chatConversations, chatScopeDocuments, MESSAGE_SEARCH_CHARS } from '../db/schema.ts'
import {
  DocumentsMissing,
  type MissingDocuments,
  refusedAsMissing,
} from '../documents/library/missing-documents.ts'
import { answersAtOnce, lockAnswersOf } from '../usage/answers-at-once-repository.ts'

export type { MissingDocuments }

export type ConversationRecord = {
  id: string
  title: string
  createdAt: Date
  updatedAt: Date
  /** Limited to chosen documents (D70); `scopeDocuments` are those still in the library. */
  scoped: boolean
  scopeDocuments: ScopeDocument[]
  /** The assistant it is with (D113): its id, and its name now, or as last known once deleted (`liveAssistantName` null). */
  assistantId: string | null
  assistantName: string | null
  liveAssistantName: string | null
}

/** A scope to store: null for the whole library, else library document ids (distinct, in order). */
export type ScopeIds = readonly string[] | null

export type ConversationSummary = ConversationRecord & { messageCount: number; lastMessage: string }

export type SearchRow = ConversationSummary & { snippet: string }

/** How many conversations a search lists at most. */
export const SEARCH_LIMIT = 20

/**
 * Ends the claim `until` (and only that one) in the write that stores its answer: whoever sees
 * the answer stored (the browser looking for a stopped one) can send the next question at once.
 */
export function releasing(until: Date | undefined) {
  if (!until) return {}
  return {
    answeringUntil: sql`CASE WHEN ${chatConversations.answeringUntil} = ${until.toISOString()}::timestamptz THEN NULL ELSE ${chatConversations.answeringUntil} END`,
  }
}

/**
 * The first write of storing an answer: the owner's conversation is touched at `at` and the claim
 * `claimUntil` ended; false when the conversation is not the owner's (or is gone).
 */
export async function touchAnswered(
  tx: Db,
  answer: { userId: string; conversationId: string; answeredAt: Date; claimUntil?: Date | undefined },
): Promise<boolean> {
  const touched = await tx
    .update(chatConversations)
    .set({ updatedAt: answer.answeredAt, ...releasing(answer.claimUntil) })
    .where(ownConversation(answer.userId, answer.conversationId))
    .returning({ id: chatConversations.id })
  return touched.length > 0
}

// The scope's documents with their names, in the order chosen (json, parsed by the driver or here).
const scopeDocuments = sql<ScopeDocument[]>`(
  select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name) order by s.position), '[]'::json)
  from chat_scope_documents s join library_documents l on l.id = s.document_id
  where s.conversation_id = chat_sessions.id
)`.mapWith((value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as ScopeDocument[])

export const conversationColumns = {
  id: chatConversations.id,
  title: chatConversations.title,
  createdAt: chatConversations.createdAt,
  updatedAt: chatConversations.updatedAt,
  scoped: chatConversations.scoped,
  scopeDocuments,
  assistantId: chatConversations.assistantId,
  assistantName: chatConversations.assistantName,
  liveAssistantName: sql<string | null>`(
    select a.name from assistants a
    where a.id = chat_sessions.assistant_id and a.user_id = chat_sessions.user_id
  )`,
}

// Qualified by hand: Drizzle leaves columns unqualified in a single-table select, and a bare "id"
// here would name the message's.
const messageCount = sql<number>`(
  select count(*) from chat_messages m where m.session_id = chat_sessions.id
)`.mapWith(Number)
const lastMessage = sql<string>`coalesce((
  select left(m.content, ${LAST_MESSAGE_PREVIEW_LENGTH}) from chat_messages m
  where m.session_id = chat_sessions.id
  order by m.created_at desc, m.is_user asc, m.id desc limit 1
), '')`

/**
 * A message as search reads it: its first MESSAGE_SEARCH_CHARS characters, written as the index
 * on chat_messages is (a literal, not a parameter), so the planner matches the two.
 */
const searchable = sql`left(m.content, ${sql.raw(String(MESSAGE_SEARCH_CHARS))})`

/** Only the owner's: another user's conversation behaves as a missing one. */
export const ownConversation = (userId: string, conversationId: string) =>
  and(eq(chatConversations.id, conversationId), eq(chatConversations.userId, userId))

/**
 * Makes `ids` the conversation's scope (null: none), within `tx`: the rows are inserted from the
 * person's own library rows, so an id that is not theirs, or no longer there, inserts nothing
 * and is answered as missing (and the caller's transaction rolls back).
 */
async function replaceScope(tx: Db, userId: string, conversationId: string, ids: ScopeIds) {
  await tx.delete(chatScopeDocuments).where(eq(chatScopeDocuments.conversationId, conversationId))
  if (ids === null || ids.length === 0) return
  const inserted = await queryRows<{ document_id: string }>(
    tx,
    sql`
    insert into chat_scope_documents (conversation_id, document_id, user_id, position)
    select ${conversationId}, l.id, l.user_id, array_position(${sql.param([...ids])}::uuid[], l.id)
    from library_documents l
    where l.user_id = ${userId} and not l.excluded and l.id = any(${sql.param([...ids])}::uuid[])
    returning document_id`,
  )
  const found = new Set(inserted.map((r) => r.document_id))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) throw new DocumentsMissing(missing)
}

/** A new conversation, limited to `scope` when given; `missing` when a chosen id is not the person's. */
export async function createConversation(
  db: Db,
  input: {
    userId: string
    title: string
    now: Date
    scope: ScopeIds
    /** The assistant it is with (checked by the caller); none when absent. */
    assistant?: { id: string; name: string } | null
  },
): Promise<ConversationRecord | MissingDocuments> {
  return refusedAsMissing(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(chatConversations)
        .values({
          userId: input.userId,
          title: input.title,
          createdAt: input.now,
          updatedAt: input.now,
          scoped: input.scope !== null,
          assistantId: input.assistant?.id ?? null,
          assistantName: input.assistant?.name ?? null,
        })
        .returning(conversationColumns)
      if (!row) throw new Error('Inserting a chat conversation returned no row')
      if (input.scope === null) return row
      await replaceScope(tx, input.userId, row.id, input.scope)
      const [scoped] = await tx
        .select(conversationColumns)
        .from(chatConversations)
        .where(eq(chatConversations.id, row.id))
      if (!scoped) throw new Error('A conversation just created is gone')
      return scoped
    }),
  )
}

/**
 * Renames the conversation and/or sets what it searches (`scope`: null for the whole library),
 * all or nothing; null when it is not theirs, `missing` when a chosen id is not the person's.
 */
export async function updateConversation(
  db: Db,
  userId: string,
  conversationId: string,
  changes: { title?: string; scope?: ScopeIds },
): Promise<ConversationSummary | MissingDocuments | null> {
  return refusedAsMissing(() =>
    db.transaction(async (tx) => {
      const [touched] = await tx
        .update(chatConversations)
        .set({
          ...(changes.title === undefined ? {} : { title: changes.title }),
          ...(changes.scope === undefined ? {} : { scoped: changes.scope !== null }),
        })
        .where(ownConversation(userId, conversationId))
        .returning({ id: chatConversations.id })
      if (!touched) return null
      if (changes.scope !== undefined) await replaceScope(tx, userId, conversationId, changes.scope)
      const [row] = await tx
        .select({ ...conversationColumns, messageCount, lastMessage })
        .from(chatConversations)
        .where(ownConversation(userId, conversationId))
      return row ?? null
    }),
  )
}

/** What an answer in a conversation is made with: see `answeringSetup`. */
export type AnsweringSetup = { scope: string[] | null; assistantId: string | null }

/**
 * What the conversation searches and who answers in it, in one read: `scope` null for the whole
 * library, else the ids of its chosen documents still in the library (possibly none); the
 * assistant it is with (D113), its id live or deleted, or null. Both null for a conversation
 * that is not theirs.
 */
export async function answeringSetup(
  db: Db,
  userId: string,
  conversationId: string,
): Promise<AnsweringSetup> {
  const rows = await queryRows<{ scoped: boolean; assistant_id: string | null; document_id: string | null }>(
    db,
    sql`
    select c.scoped, c.assistant_id, s.document_id
    from chat_sessions c left join chat_scope_documents s on s.conversation_id = c.id
    where c.id = ${conversationId} and c.user_id = ${userId}
    order by s.position`,
  )
  const assistantId = rows[0]?.assistant_id ?? null
  if (!rows[0]?.scoped) return { scope: null, assistantId }
  return { scope: rows.flatMap((r) => (r.document_id ? [r.document_id] : [])), assistantId }
}

/**
 * Newest first, each with its message count and the start of its newest message, in one
 * query: the two correlated subqueries read the (session_id, created_at) index, and no
 * message body leaves the database beyond its preview.
 */
export async function listConversations(db: Db, userId: string): Promise<ConversationSummary[]> {
  return db
    .select({ ...conversationColumns, messageCount, lastMessage })
    .from(chatConversations)
    .where(eq(chatConversations.userId, userId))
    .orderBy(desc(chatConversations.updatedAt), desc(chatConversations.createdAt), desc(chatConversations.id))
}

export async function findConversation(
  db: Db,
  userId: string,
  conversationId: string,
): Promise<ConversationRecord | null> {
  const rows = await db
    .select(conversationColumns)
    .from(chatConversations)
    .where(ownConversation(userId, conversationId))
  return rows[0] ?? null
}

/** Its messages go with it (cascade), feedback included. False when there was none. */
export async function deleteConversation(db: Db, userId: string, conversationId: string): Promise<boolean> {
  const rows = await db
    .delete(chatConversations)
    .where(ownConversation(userId, conversationId))
    .returning({ id: chatConversations.id })
  return rows.length > 0
}

/**
 * The user's conversations whose title or messages match `q` as a web search (Postgres full
 * text, English stemming), most recently active first, each with a plain-text snippet of its
 * best-matching message. Messages are read through `searchable`, so however long one is
 * stored, a search costs no more than MESSAGE_SEARCH_CHARS of it (D84); the matching
 * messages come from the index in one pass.
 */
export async function search(db: Db, userId: string, q: string): Promise<SearchRow[]> {
  const query = sql`websearch_to_tsquery('english', ${q})`
  const words = sql`to_tsvector('english', ${searchable})`
  const rows = await db
    .select({
      ...conversationColumns,
      messageCount,
      lastMessage,
      snippet: sql<string>`coalesce((
        select ts_headline('english', ${searchable}, ${query},
          'StartSel="", StopSel="", MaxWords=24, MinWords=8, ShortWord=2')
        from chat_messages m
        where m.session_id = chat_sessions.id and m.user_id = ${userId} and ${words} @@ ${query}
        order by ts_rank_cd(${words}, ${query}) desc, m.created_at desc
        limit 1
      ), '')`,
    })
    .from(chatConversations)
    .where(
      and(
        eq(chatConversations.userId, userId),
        or(
          sql`to_tsvector('english', ${chatConversations.title}) @@ ${query}`,
          sql`${chatConversations.id} in (
            select m.session_id from chat_messages m where m.user_id = ${userId} and ${words} @@ ${query}
          )`,
        ),
      ),
    )
    .orderBy(desc(chatConversations.updatedAt), desc(chatConversations.id))
    .limit(SEARCH_LIMIT)
  return rows
}

/**
 * Claims the conversation for one answer until `until`, on the database, so every app
 * instance sees it: 'busy' while another claim on it has not lapsed, 'limit' while the person
 * has `limit` answers being written elsewhere (the app's claims and the API's, D84, D134), null
 * when it is not theirs. The person's claims are taken one at a time (a transaction-scoped advisory
 * lock on their id), so two instances cannot both take the last place.
 */
export async function claimAnswering(
  db: Db,
  userId: string,
  conversationId: string,
  now: Date,
  until: Date,
  limit: number,
): Promise<'claimed' | 'busy' | 'limit' | null> {
  return db.transaction(async (tx) => {
    await lockAnswersOf(tx, userId)
    const live = answersAtOnce(userId, now)
    const claimed = await tx
      .update(chatConversations)
      .set({ answeringUntil: until })
      .where(
        and(
          ownConversation(userId, conversationId),
          or(isNull(chatConversations.answeringUntil), lte(chatConversations.answeringUntil, now)),
          sql`${live} < ${limit}`,
        ),
      )
      .returning({ id: chatConversations.id })
    if (claimed.length > 0) return 'claimed'
    const [row] = await tx
      .select({ answeringUntil: chatConversations.answeringUntil })
      .from(chatConversations)
      .where(ownConversation(userId, conversationId))
    if (!row) return null
    return row.answeringUntil !== null && row.answeringUntil > now ? 'busy' : 'limit'
  })
}

/** Ends this claim (and only this one: a lapsed claim may have been taken over since). */
export async function releaseAnswering(
  db: Db,
  userId: string,
  conversationId: string,
  until: Date,
): Promise<void> {
  await db
    .update(chatConversations)
    .set({ answeringUntil: null })
    .where(and(ownConversation(userId, conversationId), eq(chatConversations.answeringUntil, until)))
}

export const conversationQueries = {
  createConversation,
  updateConversation,
  answeringSetup,
  listConversations,
  findConversation,
  deleteConversation,
  search,
  claimAnswering,
  releaseAnswering,
}
