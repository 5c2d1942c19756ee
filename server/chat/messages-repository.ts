/**
 * The messages of a conversation: the questions and answers as listed and as the prompt's
 * history reads them, an exchange stored all or nothing, and the feedback on an answer. A message
 * carries its conversation's owner, enforced by the (session_id, user_id) foreign key, and every
 * query names it.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { DislikeReason } from '#contracts/chat.ts'
import { MAX_HISTORY_CHARS } from '../answering/prompt.ts'
import type { Db } from '../db/database.ts'
import { type Correction, chatMessages, type SourceSnapshot, type StoredCheck } from '../db/schema.ts'
import type { Turn } from '../documents/index/passages.ts'
import { touchAnswered } from './conversations-repository.ts'

export type MessageRecord = {
  id: string
  isUser: boolean
  content: string
  feedback: 'like' | 'dislike' | null
  sources: SourceSnapshot[]
  /** What retrieval searched for instead of misspelled words (D83); [] on questions. */
  corrections: Correction[]
  /** The answer's citations checked (D129); null on questions and on answers not checked. */
  checks: StoredCheck[] | null
  stopped: boolean
  createdAt: Date
  feedbackReason: DislikeReason | null
  feedbackNote: string | null
  /** The version shown and how many the answer has (D93). */
  version: number
  versionCount: number
}

export type Exchange = {
  userId: string
  conversationId: string
  question: string
  askedAt: Date
  answer: string
  sources: SourceSnapshot[]
  corrections?: Correction[]
  /** The answer's citations checked (D129); null or absent: not checked. */
  checks?: StoredCheck[] | null
  answeredAt: Date
  /** The person stopped it while it was written. */
  stopped?: boolean
  /** The claim it was written under (claimAnswering's `until`): released in the same write. */
  claimUntil?: Date
}

export const messageColumns = {
  id: chatMessages.id,
  isUser: chatMessages.isUser,
  content: chatMessages.content,
  feedback: chatMessages.feedback,
  sources: chatMessages.sources,
  corrections: chatMessages.corrections,
  checks: chatMessages.checks,
  stopped: chatMessages.stopped,
  createdAt: chatMessages.createdAt,
  feedbackReason: chatMessages.feedbackReason,
  feedbackNote: chatMessages.feedbackNote,
  version: chatMessages.version,
  versionCount: chatMessages.versionCount,
}

// A question and its answer can carry the same timestamp: the question sorts first.
const oldestFirst = [asc(chatMessages.createdAt), desc(chatMessages.isUser), asc(chatMessages.id)]
export const newestFirst = [desc(chatMessages.createdAt), asc(chatMessages.isUser), desc(chatMessages.id)]

export async function listMessages(db: Db, userId: string, conversationId: string): Promise<MessageRecord[]> {
  return db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.userId, userId)))
    .orderBy(...oldestFirst)
}

/**
 * The last `limit` messages as turns, oldest first. A turn longer than the prompt's history
 * budget is left out of the prompt anyway: no more of it than that leaves the database.
 */
export async function recentTurns(
  db: Db,
  userId: string,
  conversationId: string,
  limit: number,
): Promise<Turn[]> {
  const rows = await db
    .select({
      isUser: chatMessages.isUser,
      content: sql<string>`left(${chatMessages.content}, ${MAX_HISTORY_CHARS + 1})`,
    })
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.userId, userId)))
    .orderBy(...newestFirst)
    .limit(limit)
  return rows.reverse()
}

/**
 * Stores a question and its answer and moves the conversation's `updated_at`, all or nothing.
 * The conversation row is updated first: that locks it (a concurrent delete waits for us, then
 * cascades) and tells us whether it still exists. Null when it is gone: nothing is stored.
 */
export async function storeExchange(
  db: Db,
  x: Exchange,
): Promise<{ question: MessageRecord; answer: MessageRecord } | null> {
  return db.transaction(async (tx) => {
    if (!(await touchAnswered(tx, x))) return null
    const rows = await tx
      .insert(chatMessages)
      .values([
        {
          conversationId: x.conversationId,
          userId: x.userId,
          isUser: true,
          content: x.question,
          createdAt: x.askedAt,
        },
        {
          conversationId: x.conversationId,
          userId: x.userId,
          isUser: false,
          content: x.answer,
          sources: x.sources,
          corrections: x.corrections ?? [],
          checks: x.checks ?? null,
          stopped: x.stopped ?? false,
          createdAt: x.answeredAt,
        },
      ])
      .returning(messageColumns)
    const question = rows.find((r) => r.isUser)
    const answer = rows.find((r) => !r.isUser)
    if (!question || !answer) throw new Error('Inserting a question and its answer returned no rows')
    return { question, answer }
  })
}

/** The newest message and the one before it (the last question and its answer), newest first. */
export async function lastTwo(db: Db, userId: string, conversationId: string): Promise<MessageRecord[]> {
  return db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.userId, userId)))
    .orderBy(...newestFirst)
    .limit(2)
}

/**
 * Rates one of the user's answers. 'not-an-answer' when the id is one of their own questions;
 * null when it is nobody's message they can see.
 */
export async function setFeedback(
  db: Db,
  userId: string,
  messageId: string,
  feedback: 'like' | 'dislike',
): Promise<MessageRecord | 'not-an-answer' | null> {
  const own = and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId))
  const [updated] = await db
    .update(chatMessages)
    // A reason goes with a dislike (D93): a like, or no rating, leaves none behind.
    .set(feedback === 'dislike' ? { feedback } : { feedback, feedbackReason: null, feedbackNote: null })
    .where(and(own, eq(chatMessages.isUser, false)))
    .returning(messageColumns)
  if (updated) return updated
  const [existing] = await db.select({ id: chatMessages.id }).from(chatMessages).where(own).limit(1)
  return existing ? 'not-an-answer' : null
}

/**
 * Says why the shown version of a disliked answer did not help (D93), replacing what was said
 * before. 'not-disliked' when its feedback is not a dislike (then nothing changes).
 */
export async function explainDislike(
  db: Db,
  userId: string,
  messageId: string,
  reason: DislikeReason | null,
  note: string | null,
): Promise<MessageRecord | 'not-an-answer' | 'not-disliked' | null> {
  const own = and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId))
  const [updated] = await db
    .update(chatMessages)
    .set({ feedbackReason: reason, feedbackNote: note })
    .where(and(own, eq(chatMessages.isUser, false), eq(chatMessages.feedback, 'dislike')))
    .returning(messageColumns)
  if (updated) return updated
  const [existing] = await db.select({ isUser: chatMessages.isUser }).from(chatMessages).where(own)
  if (!existing) return null
  return existing.isUser ? 'not-an-answer' : 'not-disliked'
}

export const messageQueries = {
  listMessages,
  recentTurns,
  storeExchange,
  lastTwo,
  setFeedback,
  explainDislike,
}
