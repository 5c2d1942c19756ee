/**
 * Pure rules over the chat context: wire → UI shapes (product §3) and the list and conversation
 * updates of product §4. No effects here; chat-machine.ts decides when each one applies.
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
import type {
  ChatContext,
  ConversationItem,
  MessageItem,
  OpenSource,
  Outgoing,
  Regenerating,
  StoppedSend,
} from './chat-types.ts'

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

export const without = (ids: string[], id: string) => ids.filter((other) => other !== id)

export function outgoingOf(context: ChatContext): Outgoing {
  if (!context.outgoing) throw new Error('chat: no message is being sent')
  return context.outgoing
}

export function outgoingTarget(context: ChatContext): { conversationId: string; content: string } {
  const { conversationId, content } = outgoingOf(context)
  if (conversationId === null) throw new Error('chat: the message has no conversation yet')
  return { conversationId, content }
}

/** product §4 step 1: shown at once, under a temporary id, and remembered as the message on its way. */
export function startSending(context: ChatContext, text: string): Partial<ChatContext> {
  const tempId = `temp-${context.sentCount + 1}`
  const content = text.trim()
  const shown: MessageItem = {
    id: tempId,
    sender: 'user',
    content,
    time: new Date().toISOString(),
    feedback: null,
    sources: [],
    corrections: [],
    stopped: false,
    streaming: false,
    version: 1,
    versionCount: 1,
  }
  return {
    sentCount: context.sentCount + 1,
    outgoing: {
      tempId,
      content,
      conversationId: context.selectedConversationId,
      createdConversation: false,
      answer: '',
      sources: [],
      announced: false,
    },
    messages: [...context.messages, shown],
    draft: '',
    notice: null,
  }
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

/**
 * product §4 step 2: the new conversation goes first in the list and becomes the open one, unless the
 * person has meanwhile left the conversation the message was sent from.
 */
export function adoptCreatedConversation(
  context: ChatContext,
  conversation: Conversation,
): Partial<ChatContext> {
  const outgoing = outgoingOf(context)
  const stillOnScreen = context.messages.some((m) => m.id === outgoing.tempId)
  return {
    conversations: [toConversationItem(conversation), ...context.conversations],
    selectedConversationId: stillOnScreen ? conversation._id : context.selectedConversationId,
    outgoing: { ...outgoing, conversationId: conversation._id, createdConversation: true },
    // The conversation now holds the draft's documents (D70): the next new chat starts unlimited.
    draftScope: [],
  }
}

/** product §4 step 4, for the list always and for the screen when that conversation is still open. */
export function applyReply(context: ChatContext, reply: SendMessageResponse): Partial<ChatContext> {
  const { tempId } = outgoingOf(context)
  const { conversationId } = outgoingTarget(context)
  const messages =
    context.selectedConversationId === conversationId
      ? withReply(withoutMessage(context.messages, answerIdOf(tempId)), tempId, reply)
      : context.messages
  return {
    conversations: withReplyInConversation(context.conversations, conversationId, reply),
    messages,
    outgoing: null,
    openSource: followOpenSource(context.openSource, messages, answerIdOf(tempId), reply.aiMessage._id),
  }
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

const onScreen = (context: ChatContext, r: Regenerating) =>
  context.selectedConversationId === r.conversationId

/**
 * The stream's `sources`: before the first word, the passages the answer may cite, so each
 * marker shows as a citation as it is written; after the last, those it cited (`done` repeats them).
 */
export function storeStreamSources(context: ChatContext, sources: Source[]): Partial<ChatContext> {
  const shown = uniqueSources(sources)
  if (context.outgoing) {
    const id = answerIdOf(context.outgoing.tempId)
    const messages = context.messages.map((m) => (m.id === id ? { ...m, sources: shown } : m))
    return {
      outgoing: { ...context.outgoing, sources },
      messages,
      openSource: followOpenSource(context.openSource, messages),
    }
  }
  const r = context.regenerating
  if (!r || !onScreen(context, r)) return {}
  const messages = context.messages.map((m) => (m.id === r.messageId ? { ...m, sources: shown } : m))
  return { messages, openSource: followOpenSource(context.openSource, messages) }
}

/** The id the answer on its way is shown with until the server's answer replaces it. */
export const answerIdOf = (tempId: string) => `${tempId}:answer`

/** A token of the answer on its way: it grows the answer bubble (added with the first one). */
export function appendToken(context: ChatContext, text: string): Partial<ChatContext> {
  const outgoing = outgoingOf(context)
  const answer = outgoing.answer + text
  const id = answerIdOf(outgoing.tempId)
  const onScreen = context.messages.some((m) => m.id === outgoing.tempId)
  const bubble: MessageItem = {
    id,
    sender: 'bot',
    content: answer,
    time: new Date().toISOString(),
    feedback: null,
    sources: uniqueSources(outgoing.sources),
    corrections: [],
    stopped: false,
    streaming: true,
    version: 1,
    versionCount: 1,
  }
  const messages = !onScreen
    ? context.messages
    : context.messages.some((m) => m.id === id)
      ? context.messages.map((m) => (m.id === id ? { ...m, content: answer } : m))
      : [...context.messages, bubble]
  return { outgoing: { ...outgoing, answer }, messages }
}

/**
 * product §4 step 5: the temporary message goes away without a word; what was typed goes back into
 * the composer so nothing is lost.
 */
export function dropOutgoing(context: ChatContext): Partial<ChatContext> {
  const { outgoing } = context
  if (!outgoing) return {}
  const messages = withoutMessage(
    withoutMessage(context.messages, outgoing.tempId),
    answerIdOf(outgoing.tempId),
  )
  return {
    messages,
    outgoing: null,
    draft: context.draft === '' ? outgoing.content : context.draft,
    openSource: followOpenSource(context.openSource, messages),
  }
}

/** Stopped: the question and the answer so far stay, the answer marked as stopped. */
export function keepStopped(context: ChatContext): Partial<ChatContext> {
  const outgoing = outgoingOf(context)
  const id = answerIdOf(outgoing.tempId)
  const conversations = outgoing.conversationId
    ? context.conversations.map((s) =>
        s.id === outgoing.conversationId
          ? {
              ...s,
              lastMessage: plainText(outgoing.answer.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)),
              messageCount: s.messageCount + 2,
              timestamp: new Date().toISOString(),
            }
          : s,
      )
    : context.conversations
  const stoppedSend: StoppedSend | null = outgoing.conversationId
    ? { conversationId: outgoing.conversationId, tempId: outgoing.tempId, answer: outgoing.answer, checks: 0 }
    : null
  return {
    conversations,
    messages: context.messages.map((m) => (m.id === id ? { ...m, streaming: false, stopped: true } : m)),
    outgoing: null,
    stoppedSend,
  }
}

/**
 * The stored exchange of a stopped send among its conversation's messages, or null while the
 * server has not stored it yet: the last two, a question and then a stopped answer that begins
 * with what had arrived here and is not on screen already under its own id.
 */
export function storedStop(context: ChatContext, messages: Message[]): SendMessageResponse | null {
  const stop = context.stoppedSend
  const [question, answer] = messages.slice(-2)
  if (!stop || !question?.isUser || !answer || answer.isUser || !answer.stopped) return null
  if (!answer.content.startsWith(stop.answer.trim())) return null
  if (context.messages.some((m) => m.id === answer._id)) return null
  return { userMessage: question, aiMessage: answer }
}

/**
 * The stopped question and answer take their stored ids (and the answer the text the server
 * kept), so rating and regenerating work on them without a reload.
 */
export function adoptStoredStop(context: ChatContext, messages: Message[]): Partial<ChatContext> {
  const stop = context.stoppedSend
  const stored = storedStop(context, messages)
  if (!stop || !stored) return { stoppedSend: null }
  const shown = context.messages.some((m) => m.id === stop.tempId)
  const onScreenNow = shown
    ? withReply(withoutMessage(context.messages, answerIdOf(stop.tempId)), stop.tempId, stored)
    : context.messages
  return {
    stoppedSend: null,
    messages: onScreenNow,
    openSource: followOpenSource(
      context.openSource,
      onScreenNow,
      answerIdOf(stop.tempId),
      stored.aiMessage._id,
    ),
  }
}

/**
 * The answer that may be written again: the conversation's last message, a stored answer, with
 * fewer than MAX_ANSWER_VERSIONS versions (D93), not switching to another one.
 */
export function canRegenerate(context: ChatContext, messageId: string): boolean {
  const last = context.messages.at(-1)
  return (
    context.selectedConversationId !== null &&
    last?.id === messageId &&
    last.sender === 'bot' &&
    !last.id.startsWith('temp-') &&
    last.versionCount < MAX_ANSWER_VERSIONS &&
    !context.switchingVersionIds.includes(messageId)
  )
}

/** Version `version` of a stored answer on screen can be shown: it has it, and it is not shown. */
export function canShowVersion(context: ChatContext, messageId: string, version: number): boolean {
  const message = context.messages.find((m) => m.id === messageId)
  return (
    message !== undefined &&
    message.sender === 'bot' &&
    !message.streaming &&
    Number.isInteger(version) &&
    version >= 1 &&
    version <= message.versionCount &&
    version !== message.version &&
    !context.switchingVersionIds.includes(messageId)
  )
}

/**
 * The answer as the server now shows it (another version, D93): its text, sources, feedback and
 * time; the list's preview follows when it is the conversation's last message, and a passage
 * open beside it stays only when this version cites it too.
 */
export function showStoredVersion(context: ChatContext, message: Message): Partial<ChatContext> {
  const index = context.messages.findIndex((m) => m.id === message._id)
  if (index === -1) return {}
  const shown = toMessageItem(message)
  const messages = context.messages.map((m) => (m.id === shown.id ? shown : m))
  const isLast = index === context.messages.length - 1
  return {
    messages,
    openSource: followOpenSource(context.openSource, messages),
    conversations: isLast
      ? context.conversations.map((s) =>
          s.id === context.selectedConversationId
            ? { ...s, lastMessage: plainText(shown.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)) }
            : s,
        )
      : context.conversations,
  }
}

export function startRegenerating(context: ChatContext, messageId: string): Partial<ChatContext> {
  const previous = context.messages.find((m) => m.id === messageId)
  if (!previous || context.selectedConversationId === null) return {}
  const regenerating: Regenerating = { conversationId: context.selectedConversationId, messageId, previous }
  const messages = context.messages.map((m) =>
    m.id === messageId
      ? { ...m, content: '', sources: [], corrections: [], feedback: null, stopped: false, streaming: true }
      : m,
  )
  return { regenerating, notice: null, messages, openSource: followOpenSource(context.openSource, messages) }
}

function regeneratingOf(context: ChatContext): Regenerating {
  if (!context.regenerating) throw new Error('chat: no answer is being written again')
  return context.regenerating
}

export function appendRegenerated(context: ChatContext, text: string): Partial<ChatContext> {
  const r = regeneratingOf(context)
  if (!onScreen(context, r)) return {}
  return {
    messages: context.messages.map((m) => (m.id === r.messageId ? { ...m, content: m.content + text } : m)),
  }
}

export function storeRegenerated(context: ChatContext, reply: SendMessageResponse): Partial<ChatContext> {
  const r = regeneratingOf(context)
  const answer = toMessageItem(reply.aiMessage)
  return {
    regenerating: null,
    conversations: context.conversations.map((s) =>
      s.id === r.conversationId
        ? {
            ...s,
            lastMessage: plainText(answer.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)),
            timestamp: answer.time,
          }
        : s,
    ),
    messages: onScreen(context, r)
      ? context.messages.map((m) => (m.id === r.messageId ? answer : m))
      : context.messages,
  }
}

/** A failed or empty regenerate: the old answer comes back as it was. */
export function restoreRegenerated(context: ChatContext): Partial<ChatContext> {
  const r = regeneratingOf(context)
  return {
    regenerating: null,
    messages: onScreen(context, r)
      ? context.messages.map((m) => (m.id === r.messageId ? r.previous : m))
      : context.messages,
  }
}

export function stopRegenerated(context: ChatContext): Partial<ChatContext> {
  const r = regeneratingOf(context)
  const current = context.messages.find((m) => m.id === r.messageId)
  if (!current || current.content.trim() === '') return restoreRegenerated(context)
  // The server keeps what had arrived as a new version (D93), and shows it.
  const versionCount = Math.min(r.previous.versionCount + 1, MAX_ANSWER_VERSIONS)
  return {
    regenerating: null,
    messages: context.messages.map((m) =>
      m.id === r.messageId
        ? { ...m, streaming: false, stopped: true, version: versionCount, versionCount }
        : m,
    ),
  }
}

/** The conversation created for the message on its way, if it was; null otherwise. */
export function createdConversationOf(context: ChatContext): string | null {
  const { outgoing } = context
  return outgoing?.createdConversation && outgoing.conversationId !== null ? outgoing.conversationId : null
}

/**
 * A conversation created for a message that failed must not stay behind empty: it leaves the list
 * (and the screen) at once while its deletion runs.
 */
export function forgetCreatedConversation(context: ChatContext): Partial<ChatContext> {
  const conversationId = createdConversationOf(context)
  if (!conversationId) return {}
  return {
    conversations: withoutConversation(context.conversations, conversationId),
    selectedConversationId:
      context.selectedConversationId === conversationId ? null : context.selectedConversationId,
    deletingConversationIds: [...context.deletingConversationIds, conversationId],
  }
}
