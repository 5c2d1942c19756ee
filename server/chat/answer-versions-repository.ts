/**
 * The versions of an answer (D93): regenerate adds one and shows it, and any stored version can be
 * shown again. The version on show lives in the answer's own row; the others, with their
 * feedback, in chat_answer_versions.
 */
import { and, asc, eq } from 'drizzle-orm'
import { MAX_ANSWER_VERSIONS } from '#contracts/chat.ts'
import type { Db } from '../db/database.ts'
import {
  type Correction,
  chatAnswerVersions,
  chatConversations,
  chatMessages,
  type SourceSnapshot,
  type StoredCheck,
} from '../db/schema.ts'
import { touchAnswered } from './conversations-repository.ts'
import { type MessageRecord, messageColumns } from './messages-repository.ts'

/**
 * A new version of an existing answer (regenerate, D93): it becomes the one shown, without
 * feedback; the earlier versions stay in chat_answer_versions with theirs.
 */
export type NewVersion = {
  userId: string
  conversationId: string
  answerId: string
  answer: string
  sources: SourceSnapshot[]
  corrections?: Correction[]
  /** Its citations checked (D129); null or absent: not checked. */
  checks?: StoredCheck[] | null
  answeredAt: Date
  stopped?: boolean
  claimUntil?: Date
}

const NO_FEEDBACK = { feedback: null, feedbackReason: null, feedbackNote: null }

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * Keeps the version on show in chat_answer_versions before another is shown (D93): the first
 * time, the whole version (an answer written once has no row there); later, its feedback, which
 * the answer's row held while it was shown.
 */
async function keepShownVersion(tx: Tx, userId: string, shown: MessageRecord): Promise<void> {
  const feedback = {
    feedback: shown.feedback,
    feedbackReason: shown.feedbackReason,
    feedbackNote: shown.feedbackNote,
  }
  await tx
    .insert(chatAnswerVersions)
    .values({
      messageId: shown.id,
      userId,
      position: shown.version,
      content: shown.content,
      sources: shown.sources,
      corrections: shown.corrections,
      checks: shown.checks,
      stopped: shown.stopped,
      createdAt: shown.createdAt,
      ...feedback,
    })
    .onConflictDoUpdate({
      target: [chatAnswerVersions.messageId, chatAnswerVersions.position],
      set: feedback,
    })
}

/**
 * Adds a version to an answer and shows it (D93), moving the conversation's `updated_at` and
 * ending the claim in the same write. The version shown until now is kept first (with its
 * feedback). 'limit' when the answer already has MAX_ANSWER_VERSIONS (nothing changes); null
 * when it (or its conversation) is gone.
 */
export async function addVersion(db: Db, v: NewVersion): Promise<MessageRecord | 'limit' | null> {
  return db.transaction(async (tx) => {
    if (!(await touchAnswered(tx, v))) return null
    const [current] = await tx
      .select(messageColumns)
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.id, v.answerId),
          eq(chatMessages.conversationId, v.conversationId),
          eq(chatMessages.userId, v.userId),
          eq(chatMessages.isUser, false),
        ),
      )
      .for('update')
    if (!current) return null
    if (current.versionCount >= MAX_ANSWER_VERSIONS) return 'limit'
    await keepShownVersion(tx, v.userId, current)
    const position = current.versionCount + 1
    const version = {
      content: v.answer,
      sources: v.sources,
      corrections: v.corrections ?? [],
      checks: v.checks ?? null,
      stopped: v.stopped ?? false,
      createdAt: v.answeredAt,
    }
    await tx
      .insert(chatAnswerVersions)
      .values({ messageId: current.id, userId: v.userId, position, ...version })
    const [row] = await tx
      .update(chatMessages)
      .set({ ...version, ...NO_FEEDBACK, version: position, versionCount: position })
      .where(eq(chatMessages.id, current.id))
      .returning(messageColumns)
    return row ?? null
  })
}

/**
 * Shows version `position` of one of the person's answers (D93): the answer's row takes that
 * version's text, sources, feedback and time, after the version shown until now is kept with
 * its feedback. 'busy' while an answer is being written in its conversation (a regenerate
 * stores its version at the end, and would otherwise show it over this choice).
 */
export async function showVersion(
  db: Db,
  userId: string,
  messageId: string,
  position: number,
  now: Date,
): Promise<MessageRecord | 'not-an-answer' | 'busy' | { noSuchVersion: number } | null> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ message: messageColumns, answeringUntil: chatConversations.answeringUntil })
      .from(chatMessages)
      .innerJoin(
        chatConversations,
        and(
          eq(chatConversations.id, chatMessages.conversationId),
          eq(chatConversations.userId, chatMessages.userId),
        ),
      )
      .where(and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId)))
      .for('update')
    if (!found) return null
    const { message, answeringUntil } = found
    if (message.isUser) return 'not-an-answer'
    if (position > message.versionCount) return { noSuchVersion: message.versionCount }
    if (position === message.version) return message
    if (answeringUntil !== null && answeringUntil > now) return 'busy'
    await keepShownVersion(tx, userId, message)
    const [target] = await tx
      .select()
      .from(chatAnswerVersions)
      .where(and(eq(chatAnswerVersions.messageId, messageId), eq(chatAnswerVersions.position, position)))
    if (!target) throw new Error(`Answer ${messageId} has no stored version ${position}`)
    const [row] = await tx
      .update(chatMessages)
      .set({
        content: target.content,
        sources: target.sources,
        corrections: target.corrections,
        checks: target.checks,
        stopped: target.stopped,
        feedback: target.feedback,
        feedbackReason: target.feedbackReason,
        feedbackNote: target.feedbackNote,
        createdAt: target.createdAt,
        version: position,
      })
      .where(eq(chatMessages.id, messageId))
      .returning(messageColumns)
    return row ?? null
  })
}

/** Every version of one of the person's answers, 1 first (none for one written once). */
export async function listVersions(db: Db, userId: string, messageId: string) {
  return db
    .select({
      position: chatAnswerVersions.position,
      content: chatAnswerVersions.content,
      sources: chatAnswerVersions.sources,
      checks: chatAnswerVersions.checks,
      stopped: chatAnswerVersions.stopped,
      feedback: chatAnswerVersions.feedback,
      feedbackReason: chatAnswerVersions.feedbackReason,
      feedbackNote: chatAnswerVersions.feedbackNote,
      createdAt: chatAnswerVersions.createdAt,
    })
    .from(chatAnswerVersions)
    .where(and(eq(chatAnswerVersions.messageId, messageId), eq(chatAnswerVersions.userId, userId)))
    .orderBy(asc(chatAnswerVersions.position))
}

export const answerVersionQueries = {
  addVersion,
  showVersion,
  listVersions,
}
