/**
 * Visitors' conversations with a published assistant (issue 37, D117), in their own tables, never
 * the owner's chat. Every read names the assistant and the visitor's key, so a visitor reaches
 * only their own conversation and messages, whatever id they send.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { type VisitorSnippet, visitorConversations, visitorMessages } from '../db/schema.ts'
import type { Turn } from '../documents/index/passages.ts'

export type Visitor = { key: string; signed: boolean; name: string | null; email: string | null }

export type VisitorMessageRecord = {
  id: string
  isUser: boolean
  content: string
  sources: VisitorSnippet[]
  feedback: 'like' | 'dislike' | null
  createdAt: Date
}

export type VisitorAnswer = {
  content: string
  sources: VisitorSnippet[]
  fellBack: boolean
  foundNothing: boolean
  tokens: number
}

const messageColumns = {
  id: visitorMessages.id,
  isUser: visitorMessages.isUser,
  content: visitorMessages.content,
  sources: visitorMessages.sources,
  feedback: visitorMessages.feedback,
  createdAt: visitorMessages.createdAt,
}

const visitorsOwn = (assistantId: string, visitorKey: string) =>
  and(eq(visitorConversations.assistantId, assistantId), eq(visitorConversations.visitorKey, visitorKey))

/** The visitor's most recent conversation with the assistant, or null. */
export async function latestConversation(
  db: Db,
  assistantId: string,
  visitorKey: string,
): Promise<string | null> {
  const [row] = await db
    .select({ id: visitorConversations.id })
    .from(visitorConversations)
    .where(visitorsOwn(assistantId, visitorKey))
    .orderBy(desc(visitorConversations.updatedAt), desc(visitorConversations.id))
    .limit(1)
  return row?.id ?? null
}

/** Whether `conversationId` is this visitor's conversation with the assistant. */
export async function isVisitorsConversation(
  db: Db,
  assistantId: string,
  visitorKey: string,
  conversationId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: visitorConversations.id })
    .from(visitorConversations)
    .where(and(visitorsOwn(assistantId, visitorKey), eq(visitorConversations.id, conversationId)))
  return row !== undefined
}

export async function listVisitorMessages(db: Db, conversationId: string): Promise<VisitorMessageRecord[]> {
  return db
    .select(messageColumns)
    .from(visitorMessages)
    .where(eq(visitorMessages.conversationId, conversationId))
    .orderBy(asc(visitorMessages.createdAt), asc(visitorMessages.isUser))
}

/** The last `limit` turns, oldest first, for the prompt and a follow-up's rewrite. */
export async function recentVisitorTurns(db: Db, conversationId: string, limit: number): Promise<Turn[]> {
  const rows = await db
    .select({ isUser: visitorMessages.isUser, content: visitorMessages.content })
    .from(visitorMessages)
    .where(eq(visitorMessages.conversationId, conversationId))
    .orderBy(desc(visitorMessages.createdAt), desc(sql`not ${visitorMessages.isUser}`))
    .limit(limit)
  return rows.reverse()
}

/**
 * Stores a question and its answer, in a new conversation when `conversationId` is null (its
 * first question is this one), all or nothing; the conversation takes the visitor's latest
 * signed name and email.
 */
export async function storeVisitorExchange(
  db: Db,
  x: {
    assistantId: string
    ownerId: string
    conversationId: string | null
    visitor: Visitor
    question: string
    askedAt: Date
    answer: VisitorAnswer
    answeredAt: Date
  },
): Promise<{ conversationId: string; question: VisitorMessageRecord; answer: VisitorMessageRecord }> {
  return db.transaction(async (tx) => {
    const who = { signed: x.visitor.signed, visitorName: x.visitor.name, visitorEmail: x.visitor.email }
    const conversationId = x.conversationId
      ? (
          await tx
            .update(visitorConversations)
            .set({ ...who, updatedAt: x.answeredAt })
            .where(eq(visitorConversations.id, x.conversationId))
            .returning({ id: visitorConversations.id })
        )[0]?.id
      : (
          await tx
            .insert(visitorConversations)
            .values({
              ...who,
              assistantId: x.assistantId,
              userId: x.ownerId,
              visitorKey: x.visitor.key,
              firstQuestion: x.question,
              createdAt: x.askedAt,
              updatedAt: x.answeredAt,
            })
            .returning({ id: visitorConversations.id })
        )[0]?.id
    if (!conversationId) throw new Error('The visitor conversation to store into is gone')
    const [question, answer] = await tx
      .insert(visitorMessages)
      .values([
        { conversationId, isUser: true, content: x.question, createdAt: x.askedAt },
        { conversationId, isUser: false, ...x.answer, createdAt: x.answeredAt },
      ])
      .returning(messageColumns)
    if (!question || !answer) throw new Error('Storing a visitor exchange returned no rows')
    return { conversationId, question, answer }
  })
}

/** Sets the feedback on an answer in one of this visitor's conversations; false when there is none. */
export async function setVisitorFeedback(
  db: Db,
  x: { assistantId: string; visitorKey: string; messageId: string; feedback: 'like' | 'dislike' },
): Promise<boolean> {
  const rows = await db
    .update(visitorMessages)
    .set({ feedback: x.feedback })
    .where(
      and(
        eq(visitorMessages.id, x.messageId),
        eq(visitorMessages.isUser, false),
        sql`${visitorMessages.conversationId} in (
          select id from visitor_conversations
          where assistant_id = ${x.assistantId} and visitor_key = ${x.visitorKey})`,
      ),
    )
    .returning({ id: visitorMessages.id })
  return rows.length > 0
}

export const visitorQueries = {
  latestConversation,
  isVisitorsConversation,
  listVisitorMessages,
  recentVisitorTurns,
  storeVisitorExchange,
  setVisitorFeedback,
}

export type VisitorRepository = ReturnType<typeof createVisitorRepository>

export function createVisitorRepository(db: Db) {
  return bindDb(db, visitorQueries)
}
