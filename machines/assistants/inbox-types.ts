/** What the inbox machine (inbox-machine.ts, issue 37) holds, hears and is given. */
import type { z } from 'zod'
import type { Assistant } from '#contracts/assistants.ts'
import type { InboxConversationSchema, InboxSchema, PublicMessageSchema } from '#contracts/publishing.ts'

export type InboxFilter = 'all' | 'unanswered'
export type Inbox = z.infer<typeof InboxSchema>
export type InboxConversation = z.infer<typeof InboxConversationSchema>
export type OpenConversation = {
  conversation: InboxConversation
  messages: z.infer<typeof PublicMessageSchema>[]
}

export const INBOX_MESSAGES = {
  load: 'Could not load the conversations. Try again.',
  more: 'Could not load more conversations. Try again.',
  open: 'Could not open this conversation. Try again.',
  remove: 'Could not delete. Try again.',
  deletedOne: 'Conversation deleted.',
  deletedAll: (count: number) =>
    count === 1 ? 'Deleted 1 conversation.' : `Deleted ${count} conversations.`,
} as const

export type InboxContext = {
  assistantId: string
  /** The assistant the inbox is of: its name, and how long its conversations are kept. */
  assistant: Assistant | null
  filter: InboxFilter
  conversations: InboxConversation[]
  /** The cursor of the next page; null: none left. */
  next: string | null
  topQuestions: Inbox['topQuestions']
  perDay: Inbox['perDay']
  /** The conversation on show (its id while it loads). */
  selectedId: string | null
  open: OpenConversation | null
  /** What Delete asks about: one conversation's id, or 'all'. */
  pendingDelete: string | null
  problem: string | null
  /** The conversation's own failure, shown in its place. */
  openProblem: string | null
  notice: string | null
}

export type InboxEvent =
  | { type: 'inbox.retry' }
  | { type: 'inbox.filter'; filter: InboxFilter }
  | { type: 'inbox.more' }
  | { type: 'inbox.open'; conversationId: string }
  | { type: 'inbox.close' }
  | { type: 'inbox.askDelete'; conversationId: string | null }
  | { type: 'inbox.cancelDelete' }
  | { type: 'inbox.confirmDelete' }

export type InboxDeps = {
  get: (id: string) => Promise<Assistant>
  inbox: (id: string, filter: InboxFilter, cursor: string | null) => Promise<Inbox>
  inboxConversation: (id: string, conversationId: string) => Promise<OpenConversation>
  deleteInboxConversations: (id: string) => Promise<number>
  deleteInboxConversation: (id: string, conversationId: string) => Promise<void>
}

/** Removes `pendingDelete` (one id, or 'all'); the sentence said after. */
export type RemoveInput = { id: string; target: string }
