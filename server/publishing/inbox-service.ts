/**
 * The owner's inbox (issue 37, D117): a published assistant's visitor conversations, newest
 * activity first in pages of INBOX_PAGE_SIZE behind an opaque cursor, with the most asked
 * questions and the activity per day on the app's clock; the export as CSV; deleting one or all;
 * and the retention sweep. Another person's assistant answers 404 as a missing one does.
 */
import { createHash } from 'node:crypto'
import type { z } from 'zod'
import type { InboxConversationSchema, InboxSchema, PublicMessage } from '#contracts/publishing.ts'
import { Invalid } from '../http/domain-errors.ts'
import { DAY_MS, dayStart, utcDay } from '../usage/utc-windows.ts'
import { inboxCsv } from './inbox-csv.ts'
import type { InboxPosition, InboxRepository, InboxRow } from './inbox-repository.ts'
import { VisitorConversationNotFound } from './publishing-errors.ts'
import { toPublicMessage } from './visitor-answers.ts'

export const INBOX_PAGE_SIZE = 20
export const TOP_QUESTIONS = 10
export const PER_DAY_DAYS = 30
export const INBOX_CURSOR_INVALID = 'This page of the inbox is out of date. Reload the inbox and try again.'

type Inbox = z.infer<typeof InboxSchema>
type InboxConversation = z.infer<typeof InboxConversationSchema>
type Filter = 'all' | 'unanswered'

type Deps = {
  rows: InboxRepository
  now: () => Date
  /** Is this assistant the person's? (the assistants' own check: 404 otherwise). */
  checkOwner: (userId: string, assistantId: string) => Promise<void>
  /** Whether the visitors were shown the cited documents' names. */
  showSourceNames: (userId: string, assistantId: string) => Promise<boolean>
}

const SIGNED_PREFIX = 'sub:'

/** The signed user's `sub`, or a short stable label of the anonymous key (never the cookie's value). */
export function visitorLabel(key: string): string {
  if (key.startsWith(SIGNED_PREFIX)) return key.slice(SIGNED_PREFIX.length)
  return `v-${createHash('sha256').update(`inbox:${key}`).digest('hex').slice(0, 8)}`
}

function encodeCursor(p: InboxPosition): string {
  return Buffer.from(`${p.updatedAt.toISOString()}|${p.id}`).toString('base64url')
}

function decodeCursor(cursor: string): InboxPosition {
  const [when = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  const updatedAt = new Date(when)
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  if (rest.length > 0 || Number.isNaN(updatedAt.getTime()) || !uuid.test(id))
    throw new Invalid(INBOX_CURSOR_INVALID)
  return { updatedAt, id }
}

function toConversation(r: InboxRow): InboxConversation {
  return {
    _id: r.id,
    visitor: { id: visitorLabel(r.visitorKey), signed: r.signed, name: r.visitorName, email: r.visitorEmail },
    firstQuestion: r.firstQuestion,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    messageCount: r.messageCount,
    unanswered: r.unanswered,
    likes: r.likes,
    dislikes: r.dislikes,
  }
}

export class InboxService {
  readonly #rows: InboxRepository
  readonly #now: () => Date
  readonly #checkOwner: Deps['checkOwner']
  readonly #showSourceNames: Deps['showSourceNames']

  constructor({ rows, now, checkOwner, showSourceNames }: Deps) {
    this.#rows = rows
    this.#now = now
    this.#checkOwner = checkOwner
    this.#showSourceNames = showSourceNames
  }

  async list(
    user: { id: string },
    assistantId: string,
    q: { filter?: Filter; cursor?: string },
  ): Promise<Inbox> {
    await this.#checkOwner(user.id, assistantId)
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor)
    const rows = await this.#rows.listInbox({
      assistantId,
      unanswered: q.filter === 'unanswered',
      after,
      limit: INBOX_PAGE_SIZE,
    })
    const page = rows.slice(0, INBOX_PAGE_SIZE)
    const last = page.at(-1)
    const now = this.#now()
    const firstDay = new Date(dayStart(now).getTime() - (PER_DAY_DAYS - 1) * DAY_MS)
    const [days7, days30, activity] = await Promise.all([
      this.#rows.topQuestions(assistantId, new Date(now.getTime() - 7 * DAY_MS), TOP_QUESTIONS),
      this.#rows.topQuestions(assistantId, new Date(now.getTime() - 30 * DAY_MS), TOP_QUESTIONS),
      this.#rows.activityPerDay(assistantId, firstDay),
    ])
    const byDay = new Map(activity.map((d) => [d.day, d]))
    const perDay = Array.from({ length: PER_DAY_DAYS }, (_, i) => {
      const day = utcDay(new Date(firstDay.getTime() + i * DAY_MS))
      const found = byDay.get(day)
      return { day, conversations: found?.conversations ?? 0, tokens: found?.tokens ?? 0 }
    })
    return {
      conversations: page.map(toConversation),
      next: rows.length > INBOX_PAGE_SIZE && last ? encodeCursor(last) : null,
      topQuestions: { days7, days30 },
      perDay,
    }
  }

  /** Every message of the (filtered) inbox as CSV, and the file name to offer. */
  async csv(
    user: { id: string },
    assistantId: string,
    filter: Filter,
  ): Promise<{ fileName: string; text: string }> {
    await this.#checkOwner(user.id, assistantId)
    const rows = await this.#rows.inboxCsvRows(assistantId, filter === 'unanswered')
    return { fileName: `conversations-${utcDay(this.#now())}.csv`, text: inboxCsv(rows, visitorLabel) }
  }

  async conversation(
    user: { id: string },
    assistantId: string,
    conversationId: string,
  ): Promise<{ conversation: InboxConversation; messages: PublicMessage[] }> {
    await this.#checkOwner(user.id, assistantId)
    const found = await this.#rows.findInboxConversation(assistantId, conversationId)
    if (!found) throw new VisitorConversationNotFound()
    const [messages, showNames] = await Promise.all([
      this.#rows.listInboxMessages(conversationId),
      this.#showSourceNames(user.id, assistantId),
    ])
    return {
      conversation: toConversation(found),
      // The owner reads every answer whole, its unverified sentences marked, whatever visitors get.
      messages: messages.map((m) =>
        toPublicMessage(m, { showSourceNames: showNames, hideUnverified: false }),
      ),
    }
  }

  async deleteOne(user: { id: string }, assistantId: string, conversationId: string): Promise<null> {
    await this.#checkOwner(user.id, assistantId)
    if (!(await this.#rows.deleteInboxConversation(assistantId, conversationId)))
      throw new VisitorConversationNotFound()
    return null
  }

  async deleteAll(user: { id: string }, assistantId: string): Promise<{ deleted: number }> {
    await this.#checkOwner(user.id, assistantId)
    return { deleted: await this.#rows.deleteInboxConversations(assistantId) }
  }

  /** Deletes the visitor conversations past their assistant's retention at `now`; answers how many. */
  sweepExpired(now: Date): Promise<number> {
    return this.#rows.sweepExpiredConversations(now)
  }
}
