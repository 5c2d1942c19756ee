/**
 * Conversations and their messages. Every read and write names the owner (`user_id`), so another
 * user's id behaves exactly like a missing one. A message carries its conversation's owner, enforced
 * by the (session_id, user_id) foreign key.
 */
import { and, asc, desc, eq, isNull, lte, or, sql } from 'drizzle-orm'
import {
  type DislikeReason,
  LAST_MESSAGE_PREVIEW_LENGTH,
  MAX_ANSWER_VERSIONS,
  type ScopeDocument,
} from '#contracts/chat.ts'
import { MAX_HISTORY_CHARS } from '../assistant/prompt.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import {
  type Correction,
  chatAnswerVersions,
  chatConversations,
  chatMessages,
  chatScopeDocuments,
  MESSAGE_SEARCH_CHARS,
  type SourceSnapshot,
} from '../db/schema.ts'
import type { Turn } from '../documents/index/passages.ts'

export type ConversationRecord = {
  id: string
  title: string
  createdAt: Date
  updatedAt: Date
  /** Limited to chosen documents (D70); `scopeDocuments` are those still in the library. */
  scoped: boolean
  scopeDocuments: ScopeDocument[]
}

/** A scope to store: null for the whole library, else library document ids (distinct, in order). */
export type ScopeIds = readonly string[] | null

/** Some chosen ids are not (or no longer) documents of the person's library: nothing was stored. */
export type MissingDocuments = { missing: string[] }

export type ConversationSummary = ConversationRecord & { messageCount: number; lastMessage: string }

export type MessageRecord = {
  id: string
  isUser: boolean
  content: string
  feedback: 'like' | 'dislike' | null
  sources: SourceSnapshot[]
  /** What retrieval searched for instead of misspelled words (D83); [] on questions. */
  corrections: Correction[]
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
  answeredAt: Date
  /** The person stopped it while it was written. */
  stopped?: boolean
  /** The claim it was written under (claimAnswering's `until`): released in the same write. */
  claimUntil?: Date
}

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
  answeredAt: Date
  stopped?: boolean
  claimUntil?: Date
}

export type SearchRow = ConversationSummary & { snippet: string }

/** How many conversations a search lists at most. */
export const SEARCH_LIMIT = 20

export type ChatRepository = ReturnType<typeof createChatRepository>

/** Thrown inside a transaction to roll it back when chosen documents are missing. */
class ScopeRefused extends Error {
  readonly missing: string[]
  constructor(missing: string[]) {
    super(`Not in the library: ${missing.join(', ')}`)
    this.missing = missing
  }
}

async function refusedAsMissing<T>(work: () => Promise<T>): Promise<T | MissingDocuments> {
  try {
    return await work()
  } catch (error) {
    // Drizzle may wrap what the transaction threw.
    const refused = error instanceof ScopeRefused ? error : (error as { cause?: unknown }).cause
    if (refused instanceof ScopeRefused) return { missing: refused.missing }
    throw error
  }
}

/**
 * Ends the claim `until` (and only that one) in the write that stores its answer: whoever sees
 * the answer stored (the browser looking for a stopped one) can send the next question at once.
 */
function releasing(until: Date | undefined) {
  if (!until) return {}
  return {
    answeringUntil: sql`CASE WHEN ${chatConversations.answeringUntil} = ${until.toISOString()}::timestamptz THEN NULL ELSE ${chatConversations.answeringUntil} END`,
  }
}

// The scope's documents with their names, in the order chosen (json, parsed by the driver or here).
const scopeDocuments = sql<ScopeDocument[]>`(
  select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name) order by s.position), '[]'::json)
  from chat_scope_documents s join library_documents l on l.id = s.document_id
  where s.conversation_id = chat_sessions.id
)`.mapWith((value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as ScopeDocument[])

const conversationColumns = {
  id: chatConversations.id,
  title: chatConversations.title,
  createdAt: chatConversations.createdAt,
  updatedAt: chatConversations.updatedAt,
  scoped: chatConversations.scoped,
  scopeDocuments,
}

const messageColumns = {
  id: chatMessages.id,
  isUser: chatMessages.isUser,
  content: chatMessages.content,
  feedback: chatMessages.feedback,
  sources: chatMessages.sources,
  corrections: chatMessages.corrections,
  stopped: chatMessages.stopped,
  createdAt: chatMessages.createdAt,
  feedbackReason: chatMessages.feedbackReason,
  feedbackNote: chatMessages.feedbackNote,
  version: chatMessages.version,
  versionCount: chatMessages.versionCount,
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

// A question and its answer can carry the same timestamp: the question sorts first.
const oldestFirst = [asc(chatMessages.createdAt), desc(chatMessages.isUser), asc(chatMessages.id)]
const newestFirst = [desc(chatMessages.createdAt), asc(chatMessages.isUser), desc(chatMessages.id)]

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
      stopped: shown.stopped,
      createdAt: shown.createdAt,
      ...feedback,
    })
    .onConflictDoUpdate({
      target: [chatAnswerVersions.messageId, chatAnswerVersions.position],
      set: feedback,
    })
}

export function createChatRepository(db: Db) {
  const ownConversation = (userId: string, conversationId: string) =>
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
    if (missing.length > 0) throw new ScopeRefused(missing)
  }

  return {
    /** A new conversation, limited to `scope` when given; `missing` when a chosen id is not the person's. */
    async createConversation(input: {
      userId: string
      title: string
      now: Date
      scope: ScopeIds
    }): Promise<ConversationRecord | MissingDocuments> {
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
    },

    /**
     * Renames the conversation and/or sets what it searches (`scope`: null for the whole library),
     * all or nothing; null when it is not theirs, `missing` when a chosen id is not the person's.
     */
    async updateConversation(
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
    },

    /**
     * What the conversation searches: null for the whole library (or a conversation that is not
     * theirs), else the ids of its chosen documents still in the library (possibly none).
     */
    async scopeOf(userId: string, conversationId: string): Promise<string[] | null> {
      const rows = await queryRows<{ scoped: boolean; document_id: string | null }>(
        db,
        sql`
        select c.scoped, s.document_id
        from chat_sessions c left join chat_scope_documents s on s.conversation_id = c.id
        where c.id = ${conversationId} and c.user_id = ${userId}
        order by s.position`,
      )
      if (!rows[0]?.scoped) return null
      return rows.flatMap((r) => (r.document_id ? [r.document_id] : []))
    },

    /**
     * Newest first, each with its message count and the start of its newest message, in one
     * query: the two correlated subqueries read the (session_id, created_at) index, and no
     * message body leaves the database beyond its preview.
     */
    async listConversations(userId: string): Promise<ConversationSummary[]> {
      return db
        .select({ ...conversationColumns, messageCount, lastMessage })
        .from(chatConversations)
        .where(eq(chatConversations.userId, userId))
        .orderBy(
          desc(chatConversations.updatedAt),
          desc(chatConversations.createdAt),
          desc(chatConversations.id),
        )
    },

    async findConversation(userId: string, conversationId: string): Promise<ConversationRecord | null> {
      const rows = await db
        .select(conversationColumns)
        .from(chatConversations)
        .where(ownConversation(userId, conversationId))
      return rows[0] ?? null
    },

    /** Its messages go with it (cascade), feedback included. False when there was none. */
    async deleteConversation(userId: string, conversationId: string): Promise<boolean> {
      const rows = await db
        .delete(chatConversations)
        .where(ownConversation(userId, conversationId))
        .returning({ id: chatConversations.id })
      return rows.length > 0
    },

    async listMessages(userId: string, conversationId: string): Promise<MessageRecord[]> {
      return db
        .select(messageColumns)
        .from(chatMessages)
        .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.userId, userId)))
        .orderBy(...oldestFirst)
    },

    /**
     * The last `limit` messages as turns, oldest first. A turn longer than the prompt's history
     * budget is left out of the prompt anyway: no more of it than that leaves the database.
     */
    async recentTurns(userId: string, conversationId: string, limit: number): Promise<Turn[]> {
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
    },

    /**
     * Stores a question and its answer and moves the conversation's `updated_at`, all or nothing.
     * The conversation row is updated first: that locks it (a concurrent delete waits for us, then
     * cascades) and tells us whether it still exists. Null when it is gone: nothing is stored.
     */
    async storeExchange(x: Exchange): Promise<{ question: MessageRecord; answer: MessageRecord } | null> {
      return db.transaction(async (tx) => {
        const touched = await tx
          .update(chatConversations)
          .set({ updatedAt: x.answeredAt, ...releasing(x.claimUntil) })
          .where(ownConversation(x.userId, x.conversationId))
          .returning({ id: chatConversations.id })
        if (touched.length === 0) return null
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
    },

    /**
     * Claims the conversation for one answer until `until`, on the database, so every app
     * instance sees it: 'busy' while another claim on it has not lapsed, 'limit' while the person
     * has `limit` claims on other conversations (answers being written anywhere, D84), null when
     * it is not theirs. The person's claims are taken one at a time (a transaction-scoped advisory
     * lock on their id), so two instances cannot both take the last place.
     */
    async claimAnswering(
      userId: string,
      conversationId: string,
      now: Date,
      until: Date,
      limit: number,
    ): Promise<'claimed' | 'busy' | 'limit' | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`chat-answers:${userId}`}, 0))`)
        const live = sql`(
          select count(*) from chat_sessions others
          where others.user_id = ${userId} and others.answering_until > ${now.toISOString()}::timestamptz
        )`
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
    },

    /** Ends this claim (and only this one: a lapsed claim may have been taken over since). */
    async releaseAnswering(userId: string, conversationId: string, until: Date): Promise<void> {
      await db
        .update(chatConversations)
        .set({ answeringUntil: null })
        .where(and(ownConversation(userId, conversationId), eq(chatConversations.answeringUntil, until)))
    },

    /** The newest message and the one before it (the last question and its answer), newest first. */
    async lastTwo(userId: string, conversationId: string): Promise<MessageRecord[]> {
      return db
        .select(messageColumns)
        .from(chatMessages)
        .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.userId, userId)))
        .orderBy(...newestFirst)
        .limit(2)
    },

    /**
     * Adds a version to an answer and shows it (D93), moving the conversation's `updated_at` and
     * ending the claim in the same write. The version shown until now is kept first (with its
     * feedback). 'limit' when the answer already has MAX_ANSWER_VERSIONS (nothing changes); null
     * when it (or its conversation) is gone.
     */
    async addVersion(v: NewVersion): Promise<MessageRecord | 'limit' | null> {
      return db.transaction(async (tx) => {
        const touched = await tx
          .update(chatConversations)
          .set({ updatedAt: v.answeredAt, ...releasing(v.claimUntil) })
          .where(ownConversation(v.userId, v.conversationId))
          .returning({ id: chatConversations.id })
        if (touched.length === 0) return null
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
    },

    /**
     * Shows version `position` of one of the person's answers (D93): the answer's row takes that
     * version's text, sources, feedback and time, after the version shown until now is kept with
     * its feedback. 'busy' while an answer is being written in its conversation (a regenerate
     * stores its version at the end, and would otherwise show it over this choice).
     */
    async showVersion(
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
    },

    /** Every version of one of the person's answers, 1 first (none for one written once). */
    async listVersions(userId: string, messageId: string) {
      return db
        .select({
          position: chatAnswerVersions.position,
          content: chatAnswerVersions.content,
          sources: chatAnswerVersions.sources,
          stopped: chatAnswerVersions.stopped,
          feedback: chatAnswerVersions.feedback,
          feedbackReason: chatAnswerVersions.feedbackReason,
          feedbackNote: chatAnswerVersions.feedbackNote,
          createdAt: chatAnswerVersions.createdAt,
        })
        .from(chatAnswerVersions)
        .where(and(eq(chatAnswerVersions.messageId, messageId), eq(chatAnswerVersions.userId, userId)))
        .orderBy(asc(chatAnswerVersions.position))
    },

    /**
     * The user's conversations whose title or messages match `q` as a web search (Postgres full
     * text, English stemming), most recently active first, each with a plain-text snippet of its
     * best-matching message. Messages are read through `searchable`, so however long one is
     * stored, a search costs no more than MESSAGE_SEARCH_CHARS of it (D84); the matching
     * messages come from the index in one pass.
     */
    async search(userId: string, q: string): Promise<SearchRow[]> {
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
    },

    /**
     * Rates one of the user's answers. 'not-an-answer' when the id is one of their own questions;
     * null when it is nobody's message they can see.
     */
    async setFeedback(
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
    },

    /**
     * Says why the shown version of a disliked answer did not help (D93), replacing what was said
     * before. 'not-disliked' when its feedback is not a dislike (then nothing changes).
     */
    async explainDislike(
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
    },
  }
}
