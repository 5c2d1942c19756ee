/**
 * The owner's inbox of visitor conversations (issue 37, D117): every read and delete names the
 * assistant, and the service has already checked that the assistant is the person's. A
 * conversation is "unanswered" when one of its answers fell back, cited nothing, or was disliked.
 */
import { type SQL, sql } from 'drizzle-orm'
import { DEFAULT_RETENTION_DAYS } from '#contracts/publishing.ts'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import type { VisitorSnippet } from '../db/schema.ts'

export type InboxRow = {
  id: string
  visitorKey: string
  signed: boolean
  visitorName: string | null
  visitorEmail: string | null
  firstQuestion: string
  createdAt: Date
  updatedAt: Date
  messageCount: number
  likes: number
  dislikes: number
  unanswered: boolean
}

/** Where a page starts: after this conversation in newest-first order. */
export type InboxPosition = { updatedAt: Date; id: string }

export type CsvMessageRow = {
  conversationId: string
  visitorKey: string
  signed: boolean
  visitorName: string | null
  createdAt: Date
  isUser: boolean
  content: string
  feedback: 'like' | 'dislike' | null
}

export type InboxMessageRow = {
  id: string
  isUser: boolean
  content: string
  sources: VisitorSnippet[]
  feedback: 'like' | 'dislike' | null
  createdAt: Date
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`

/**
 * Conversations of the assistant with their counts; `where` narrows them on the counts, `within`
 * before they are counted (a page's cursor, so a page counts only what may be on it).
 */
function summaries(assistantId: string, where: SQL, within: SQL = sql`true`) {
  return sql`select * from (
      select c.id, c.visitor_key as "visitorKey", c.signed, c.visitor_name as "visitorName",
        c.visitor_email as "visitorEmail", c.first_question as "firstQuestion",
        c.created_at as "createdAt", c.updated_at as "updatedAt",
        s.message_count as "messageCount", s.likes, s.dislikes, s.unanswered
      from visitor_conversations c
      cross join lateral (
        select count(*)::int as message_count,
          (count(*) filter (where m.feedback = 'like'))::int as likes,
          (count(*) filter (where m.feedback = 'dislike'))::int as dislikes,
          coalesce(bool_or(not m.is_user and (m.fell_back or m.found_nothing or m.feedback = 'dislike')), false)
            as unanswered
        from visitor_messages m where m.conversation_id = c.id) s
      where c.assistant_id = ${assistantId} and ${within}) x
    where ${where}`
}

const withDates = <R extends { createdAt: Date; updatedAt: Date }>(r: R): R => ({
  ...r,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
})

export type InboxPageQuery = {
  assistantId: string
  unanswered: boolean
  after: InboxPosition | null
  limit: number
}

/**
 * One page's query, newest activity first: visitor_conversations_assistant_updated_idx read
 * backwards gives the rows in this order, so only a page's conversations are counted (D122).
 */
export function inboxPageQuery(q: InboxPageQuery): SQL {
  const filter = q.unanswered ? sql`x.unanswered` : sql`true`
  const after = q.after ? sql`("updatedAt", id) < (${at(q.after.updatedAt)}, ${q.after.id}::uuid)` : sql`true`
  return sql`${summaries(q.assistantId, sql`${filter} and ${after}`)}
      order by "updatedAt" desc, id desc limit ${q.limit + 1}`
}

/** One page, newest activity first, `limit` + 1 rows so the caller knows whether more follow. */
export async function listInbox(db: Db, q: InboxPageQuery): Promise<InboxRow[]> {
  const rows = await queryRows<InboxRow>(db, inboxPageQuery(q))
  return rows.map(withDates)
}

export async function findInboxConversation(
  db: Db,
  assistantId: string,
  conversationId: string,
): Promise<InboxRow | null> {
  const [row] = await queryRows<InboxRow>(db, summaries(assistantId, sql`x.id = ${conversationId}::uuid`))
  return row ? withDates(row) : null
}

export async function listInboxMessages(db: Db, conversationId: string): Promise<InboxMessageRow[]> {
  const rows = await queryRows<InboxMessageRow>(
    db,
    sql`select id, is_user as "isUser", content, sources, feedback, created_at as "createdAt"
      from visitor_messages where conversation_id = ${conversationId}
      order by created_at, not is_user`,
  )
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))
}

/** The visitors' questions since `since`, trimmed, lower-cased and spaces collapsed, most asked first. */
export async function topQuestions(
  db: Db,
  assistantId: string,
  since: Date,
  limit: number,
): Promise<{ question: string; count: number }[]> {
  return queryRows(
    db,
    sql`select q.question, count(*)::int as count from (
        select lower(regexp_replace(btrim(m.content), '\\s+', ' ', 'g')) as question
        from visitor_messages m join visitor_conversations c on c.id = m.conversation_id
        where c.assistant_id = ${assistantId} and m.is_user and m.created_at >= ${at(since)}) q
      where q.question <> ''
      group by q.question order by count desc, q.question limit ${limit}`,
  )
}

/** Conversations started and tokens spent per UTC day since `since` (days with none are absent). */
export async function activityPerDay(
  db: Db,
  assistantId: string,
  since: Date,
): Promise<{ day: string; conversations: number; tokens: number }[]> {
  const day = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`
  return queryRows(
    db,
    sql`select day, sum(conversations)::int as conversations, sum(tokens)::int as tokens from (
        select ${day(sql`c.created_at`)} as day, 1 as conversations, 0 as tokens
        from visitor_conversations c
        where c.assistant_id = ${assistantId} and c.created_at >= ${at(since)}
        union all
        select ${day(sql`m.created_at`)}, 0, m.tokens
        from visitor_messages m join visitor_conversations c on c.id = m.conversation_id
        where c.assistant_id = ${assistantId} and m.created_at >= ${at(since)}) d
      group by day`,
  )
}

/** Every message of the (filtered) inbox for the export, conversations newest first. */
export async function inboxCsvRows(
  db: Db,
  assistantId: string,
  unanswered: boolean,
): Promise<CsvMessageRow[]> {
  const rows = await queryRows<CsvMessageRow>(
    db,
    sql`select x.id as "conversationId", x."visitorKey", x.signed, x."visitorName",
        m.created_at as "createdAt", m.is_user as "isUser", m.content, m.feedback
      from (${summaries(assistantId, unanswered ? sql`x.unanswered` : sql`true`)}) x
      join visitor_messages m on m.conversation_id = x.id
      order by x."updatedAt" desc, x.id desc, m.created_at, not m.is_user`,
  )
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))
}

export async function deleteInboxConversation(
  db: Db,
  assistantId: string,
  conversationId: string,
): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`delete from visitor_conversations where assistant_id = ${assistantId} and id = ${conversationId}::uuid
      returning id`,
  )
  return rows.length > 0
}

export async function deleteInboxConversations(db: Db, assistantId: string): Promise<number> {
  const rows = await queryRows(
    db,
    sql`delete from visitor_conversations where assistant_id = ${assistantId} returning id`,
  )
  return rows.length
}

/**
 * Deletes every visitor conversation whose last activity is older than its assistant's retention
 * (DEFAULT_RETENTION_DAYS when the assistant has no publication row); answers how many.
 */
export async function sweepExpiredConversations(db: Db, now: Date): Promise<number> {
  const rows = await queryRows(
    db,
    sql`delete from visitor_conversations c
      where c.updated_at < ${at(now)} - make_interval(days => coalesce(
        (select p.retention_days from assistant_publications p where p.assistant_id = c.assistant_id),
        ${DEFAULT_RETENTION_DAYS}))
      returning c.id`,
  )
  return rows.length
}

export const inboxQueries = {
  listInbox,
  findInboxConversation,
  listInboxMessages,
  topQuestions,
  activityPerDay,
  inboxCsvRows,
  deleteInboxConversation,
  deleteInboxConversations,
  sweepExpiredConversations,
}

export type InboxRepository = ReturnType<typeof createInboxRepository>

export function createInboxRepository(db: Db) {
  return bindDb(db, inboxQueries)
}
