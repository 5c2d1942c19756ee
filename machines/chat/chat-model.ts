/**
 * Pure rules over the chat context: wire → UI shapes (SPEC §3) and the list and conversation
 * updates of SPEC §4. No effects here; chat-machine.ts decides when each one applies.
 */
import {
  type ChatSession,
  type Feedback,
  LAST_MESSAGE_PREVIEW_LENGTH,
  type Message,
  type SendMessageResponse,
  type Source,
} from '#contracts/chat.ts'
import type { ChatContext, MessageItem, Outgoing, SessionItem } from './chat-types.ts'

export function toSessionItem(session: ChatSession): SessionItem {
  return {
    id: session._id,
    title: session.title,
    lastMessage: session.lastMessage,
    timestamp: session.updatedAt,
    messageCount: session.messageCount,
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
  }
}

/** One line per document page: several passages of one page would repeat the same source. */
export function uniqueSources(sources: Source[]): Source[] {
  const seen = new Set<string>()
  return sources.filter((source) => {
    const key = `${source.documentId}:${source.page ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const byNewest = (a: SessionItem, b: SessionItem) => Date.parse(b.timestamp) - Date.parse(a.timestamp)

/**
 * The loaded list, newest first, after any session created while it was loading (those are newer
 * than anything the server listed before they existed).
 */
export function mergeLoadedSessions(current: SessionItem[], loaded: ChatSession[]): SessionItem[] {
  const known = new Set(current.map((session) => session.id))
  const fresh = loaded
    .filter((session) => !known.has(session._id))
    .map(toSessionItem)
    .sort(byNewest)
  return [...current, ...fresh]
}

export function withoutSession(sessions: SessionItem[], sessionId: string): SessionItem[] {
  return sessions.filter((session) => session.id !== sessionId)
}

/** SPEC §4 step 4: the session that just got a reply shows it and moves to the top. */
export function withReplyInSession(
  sessions: SessionItem[],
  sessionId: string,
  reply: SendMessageResponse,
): SessionItem[] {
  const session = sessions.find((s) => s.id === sessionId)
  if (!session) return sessions
  const updated: SessionItem = {
    ...session,
    lastMessage: reply.aiMessage.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH),
    messageCount: session.messageCount + 2,
    timestamp: reply.aiMessage.createdAt,
  }
  return [updated, ...withoutSession(sessions, sessionId)]
}

/**
 * SPEC §4 step 4 in the conversation: the temporary message becomes the server's user message
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

export function outgoingTarget(context: ChatContext): { sessionId: string; content: string } {
  const { sessionId, content } = outgoingOf(context)
  if (sessionId === null) throw new Error('chat: the message has no session yet')
  return { sessionId, content }
}

/** SPEC §4 step 1: shown at once, under a temporary id, and remembered as the message on its way. */
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
  }
  return {
    sentCount: context.sentCount + 1,
    outgoing: { tempId, content, sessionId: context.selectedSessionId },
    messages: [...context.messages, shown],
  }
}

/**
 * SPEC §4 step 2: the new session goes first in the list and becomes the open one, unless the
 * person has meanwhile left the conversation the message was sent from.
 */
export function adoptCreatedSession(context: ChatContext, session: ChatSession): Partial<ChatContext> {
  const outgoing = outgoingOf(context)
  const stillOnScreen = context.messages.some((m) => m.id === outgoing.tempId)
  return {
    sessions: [toSessionItem(session), ...context.sessions],
    selectedSessionId: stillOnScreen ? session._id : context.selectedSessionId,
    outgoing: { ...outgoing, sessionId: session._id },
  }
}

/** SPEC §4 step 4, for the list always and for the screen when that conversation is still open. */
export function applyReply(context: ChatContext, reply: SendMessageResponse): Partial<ChatContext> {
  const { tempId } = outgoingOf(context)
  const { sessionId } = outgoingTarget(context)
  return {
    sessions: withReplyInSession(context.sessions, sessionId, reply),
    messages:
      context.selectedSessionId === sessionId ? withReply(context.messages, tempId, reply) : context.messages,
    outgoing: null,
  }
}

/** SPEC §4 step 5: the temporary message goes away without a word. */
export function dropOutgoing(context: ChatContext): Partial<ChatContext> {
  return {
    messages: context.outgoing ? withoutMessage(context.messages, context.outgoing.tempId) : context.messages,
    outgoing: null,
  }
}
