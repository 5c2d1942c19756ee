/**
 * Pure rules every chat actor shares: wire → UI shapes (product §3), the list's and the messages'
 * updates of product §4, and which answer may be written again or switched. No effects here; the
 * actors (conversation-list, open-conversation, sender machines) decide when each one applies.
 */
import {
  type Conversation,
  type Feedback,
  LAST_MESSAGE_PREVIEW_LENGTH,
  MAX_ANSWER_VERSIONS,
  type Message,
  type SendMessageResponse,
  type Source,
} from '#contracts/chat.ts'
import { messageOf, statusOf } from '#machines/shared/effects.ts'
import type { ConversationItem, MessageItem, OpenSource } from './chat-types.ts'

/**
 * An answer's markdown as one line of plain text, for previews (History, Recent Conversations):
 * no heading marks, emphasis, code fences, table bars, link targets or citation markers.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s*\[\d+\]/g, '')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|\*|_|~~|`)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim()
}

export function toConversationItem(conversation: Conversation): ConversationItem {
  return {
    id: conversation._id,
    title: conversation.title,
    lastMessage: plainText(conversation.lastMessage),
    timestamp: conversation.updatedAt,
    messageCount: conversation.messageCount,
    scope: conversation.scope ?? null,
    assistant: conversation.assistant ?? null,
  }
}

export function toMessageItem(message: Message): MessageItem {
  return {
    id: message._id,
    sender: message.isUser ? 'user' : 'bot',
    content: message.content,
    time: message.createdAt,
    feedback: message.feedback,
    sources: uniqueSources(message.sources),
    corrections: message.corrections ?? [],
    stopped: message.stopped ?? false,
    ...(message.checks === undefined ? {} : { checks: message.checks }),
    streaming: false,
    version: message.version ?? 1,
    versionCount: message.versionCount ?? 1,
  }
}

/**
 * One line per document page: several passages of one page would repeat the same source. Cited
 * passages stay apart, each with its own [n], so every marker can show its passage.
 */
export function uniqueSources(sources: Source[]): Source[] {
  const seen = new Set<string>()
  return sources.filter((source) => {
    const key = source.citation ? `cite:${source.citation}` : `${source.documentId}:${source.page ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const byNewest = (a: ConversationItem, b: ConversationItem) =>
  Date.parse(b.timestamp) - Date.parse(a.timestamp)

/**
 * The loaded list, newest first, after any conversation created while it was loading (those are newer
 * than anything the server listed before they existed).
 */
export function mergeLoadedConversations(
  current: ConversationItem[],
  loaded: Conversation[],
): ConversationItem[] {
  const known = new Set(current.map((conversation) => conversation.id))
  const fresh = loaded
    .filter((conversation) => !known.has(conversation._id))
    .map(toConversationItem)
    .sort(byNewest)
  return [...current, ...fresh]
}

export function withoutConversation(
  conversations: ConversationItem[],
  conversationId: string,
): ConversationItem[] {
  return conversations.filter((conversation) => conversation.id !== conversationId)
}

/** product §4 step 4: the conversation that just got a reply shows it and moves to the top. */
export function withReplyInConversation(
  conversations: ConversationItem[],
  conversationId: string,
  reply: SendMessageResponse,
): ConversationItem[] {
  const conversation = conversations.find((s) => s.id === conversationId)
  if (!conversation) return conversations
  const updated: ConversationItem = {
    ...conversation,
    lastMessage: plainText(reply.aiMessage.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)),
    messageCount: conversation.messageCount + 2,
    timestamp: reply.aiMessage.createdAt,
  }
  return [updated, ...withoutConversation(conversations, conversationId)]
}

/**
 * product §4 step 4 in the conversation: the temporary message becomes the server's user message
 * and the answer follows it. When the temporary one is gone (the conversation was reloaded
 * meanwhile) both are added unless already there.
 */
export function withReply(
  messages: MessageItem[],
  tempId: string,
  reply: SendMessageResponse,
): MessageItem[] {
  const user = toMessageItem(reply.userMessage)
  const answer = toMessageItem(reply.aiMessage)
  const hasTemp = messages.some((m) => m.id === tempId)
  const next = hasTemp
    ? messages.map((m) => (m.id === tempId ? user : m))
    : messages.some((m) => m.id === user.id)
      ? messages
      : [...messages, user]
  return next.some((m) => m.id === answer.id) ? next : [...next, answer]
}

export function withoutMessage(messages: MessageItem[], messageId: string): MessageItem[] {
  return messages.filter((m) => m.id !== messageId)
}

export function withFeedback(
  messages: MessageItem[],
  messageId: string,
  feedback: Feedback | null,
): MessageItem[] {
  return messages.map((m) => (m.id === messageId ? { ...m, feedback } : m))
}

/**
 * The passage open beside the conversation, once the answers on screen changed: still open when
 * its answer (renamed `from` → `to` when it took its stored id) still cites it; closed otherwise.
 */
export function followOpenSource(
  open: OpenSource | null,
  messages: MessageItem[],
  from?: string,
  to?: string,
): OpenSource | null {
  if (!open) return null
  const messageId = open.messageId === from && to !== undefined ? to : open.messageId
  const message = messages.find((m) => m.id === messageId)
  return message?.sources.some((s) => s.chunkId === open.chunkId) ? { ...open, messageId } : null
}

/** The id the answer on its way is shown with until the server's answer replaces it. */
export const answerIdOf = (tempId: string) => `${tempId}:answer`

/** A message shown before the server has it (a question on its way, an answer being written). */
export function shownMessage(
  id: string,
  sender: MessageItem['sender'],
  content: string,
  time: string,
  extra: Partial<MessageItem> = {},
): MessageItem {
  return {
    id,
    sender,
    content,
    time,
    feedback: null,
    sources: [],
    corrections: [],
    stopped: false,
    streaming: false,
    version: 1,
    versionCount: 1,
    ...extra,
  }
}

/** The list after an answer was stopped, written again or switched: its preview (and time) follow. */
export function withPreview(
  conversations: ConversationItem[],
  conversationId: string,
  content: string,
  change: Partial<ConversationItem> = {},
): ConversationItem[] {
  return conversations.map((c) =>
    c.id === conversationId
      ? { ...c, lastMessage: plainText(content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)), ...change }
      : c,
  )
}

/**
 * The answer that may be written again: the conversation's last message, a stored answer, with
 * fewer than MAX_ANSWER_VERSIONS versions (D93), not switching to another one (`switching`).
 */
export function canRegenerate(messages: MessageItem[], messageId: string, switching: boolean): boolean {
  const last = messages.at(-1)
  return (
    last?.id === messageId &&
    last.sender === 'bot' &&
    !last.id.startsWith('temp-') &&
    last.versionCount < MAX_ANSWER_VERSIONS &&
    !switching
  )
}

/** Version `version` of a stored answer on screen can be shown: it has it, and it is not shown. */
export function canShowVersion(messages: MessageItem[], messageId: string, version: number): boolean {
  const message = messages.find((m) => m.id === messageId)
  return (
    message !== undefined &&
    message.sender === 'bot' &&
    !message.streaming &&
    Number.isInteger(version) &&
    version >= 1 &&
    version <= message.versionCount &&
    version !== message.version
  )
}

/** What a person reads when the server would not start an answer now (429), else nothing. */
export const TOO_MANY_ANSWERS =
  'You already have answers being written. Wait for one to finish (or stop it), then send again.'

/**
 * The notice for a failed send or regenerate: the server's sentence for a 429 (it says how many
 * answers a person may have written at once), null for every other failure (product §8).
 */
export function noticeOf(error: unknown): string | null {
  return statusOf(error) === 429 ? (messageOf(error) ?? TOO_MANY_ANSWERS) : null
}
