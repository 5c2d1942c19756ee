/**
 * Pure rules for the conversation on screen: how each fact about an exchange (product §4 send
 * steps, Stop, Regenerate, D93 versions) changes its messages and the passage open beside them.
 * The sender says what happened; these decide what the screen shows of it.
 */
import type { Conversation, Message, SendMessageResponse, Source } from '#contracts/chat.ts'
import {
  answerIdOf,
  followOpenSource,
  shownMessage,
  toMessageItem,
  uniqueSources,
  withoutMessage,
  withReply,
} from './chat-model.ts'
import type { MessageItem, OpenConversationContext } from './chat-types.ts'
import { citedSoFar } from './listed-sources.ts'

type Context = OpenConversationContext
type Change = Partial<Context>

const shows = (context: Context, id: string) => context.messages.some((m) => m.id === id)

/** The messages after `change`, with the open passage following them (closed when no longer cited). */
function withMessages(context: Context, messages: MessageItem[], from?: string, to?: string): Change {
  return { messages, openSource: followOpenSource(context.openSource, messages, from, to) }
}

function mapMessage(context: Context, id: string, change: (m: MessageItem) => MessageItem): MessageItem[] {
  return context.messages.map((m) => (m.id === id ? change(m) : m))
}

/**
 * product §4 step 2: the conversation created for the question becomes the open one, unless the
 * person has meanwhile left the new chat it was sent from.
 */
export function adoptCreated(context: Context, tempId: string, conversation: Conversation): Change {
  return shows(context, tempId) ? { conversationId: conversation._id } : {}
}

/** A token of the answer on its way: it grows the answer bubble (added with the first one). */
export function growAnswer(
  context: Context,
  tempId: string,
  answer: string,
  sources: Source[],
  at: string,
): Change {
  if (!shows(context, tempId)) return {}
  const id = answerIdOf(tempId)
  if (shows(context, id)) return { messages: mapMessage(context, id, (m) => ({ ...m, content: answer })) }
  const bubble = shownMessage(id, 'bot', answer, at, { sources: uniqueSources(sources), streaming: true })
  return { messages: [...context.messages, bubble] }
}

/**
 * The stream's `sources`: before the first word, the passages the answer may cite, so each
 * marker shows as a citation as it is written; after the last, those it cited (`done` repeats them).
 */
export function storeSources(context: Context, answerId: string, sources: Source[]): Change {
  if (!shows(context, answerId)) return {}
  const shown = uniqueSources(sources)
  return withMessages(
    context,
    mapMessage(context, answerId, (m) => ({ ...m, sources: shown })),
  )
}

/**
 * product §4 step 4 on screen, when that conversation is still open: the temporary question
 * becomes the server's and the answer follows it.
 */
export function applyReply(
  context: Context,
  conversationId: string,
  tempId: string,
  reply: SendMessageResponse,
): Change {
  if (context.conversationId !== conversationId) return {}
  const answerId = answerIdOf(tempId)
  const messages = withReply(withoutMessage(context.messages, answerId), tempId, reply)
  return withMessages(context, messages, answerId, reply.aiMessage._id)
}

/** product §4 step 5: the temporary question and any answer so far go away without a word. */
export function dropExchange(context: Context, tempId: string): Change {
  return withMessages(context, withoutMessage(withoutMessage(context.messages, tempId), answerIdOf(tempId)))
}

/**
 * Stopped: the question and the answer so far stay, the answer marked as stopped; of the
 * passages it might have cited it keeps those it did (as the server stores it).
 */
export function markStopped(context: Context, tempId: string): Change {
  const messages = mapMessage(context, answerIdOf(tempId), (m) => ({
    ...m,
    sources: citedSoFar(m.sources, m.content),
    streaming: false,
    stopped: true,
  }))
  return withMessages(context, messages)
}

/**
 * The stopped question and answer take their stored ids (and the answer the text the server
 * kept), so rating and regenerating work on them without a reload; nothing changes when they are
 * no longer on screen, or the stored answer already is.
 */
export function adoptStoredStop(context: Context, tempId: string, stored: SendMessageResponse): Change {
  if (!shows(context, tempId) || shows(context, stored.aiMessage._id)) return {}
  const answerId = answerIdOf(tempId)
  const messages = withReply(withoutMessage(context.messages, answerId), tempId, stored)
  return withMessages(context, messages, answerId, stored.aiMessage._id)
}

/** Regenerate: the answer is emptied in place and written again. */
export function startRegenerating(context: Context, messageId: string): Change {
  const messages = mapMessage(context, messageId, (m) => ({
    ...m,
    content: '',
    sources: [],
    corrections: [],
    feedback: null,
    stopped: false,
    streaming: true,
  }))
  return withMessages(context, messages)
}

export function growRegenerated(context: Context, messageId: string, text: string): Change {
  return { messages: mapMessage(context, messageId, (m) => ({ ...m, content: m.content + text })) }
}

export function storeRegenerated(context: Context, messageId: string, reply: SendMessageResponse): Change {
  const answer = toMessageItem(reply.aiMessage)
  return { messages: mapMessage(context, messageId, () => answer) }
}

/** A failed or empty regenerate: the old answer comes back as it was. */
export function restoreAnswer(context: Context, previous: MessageItem): Change {
  return { messages: mapMessage(context, previous.id, () => previous) }
}

/** A stopped regenerate: the server keeps what had arrived as a new version (D93), and shows it. */
export function stopRegenerated(context: Context, previous: MessageItem, maxVersions: number): Change {
  const current = context.messages.find((m) => m.id === previous.id)
  if (!current || current.content.trim() === '') return restoreAnswer(context, previous)
  const versionCount = Math.min(previous.versionCount + 1, maxVersions)
  const messages = mapMessage(context, previous.id, (m) => ({
    ...m,
    sources: citedSoFar(m.sources, m.content),
    streaming: false,
    stopped: true,
    version: versionCount,
    versionCount,
  }))
  return withMessages(context, messages)
}

/**
 * The answer as the server now shows it (another version, D93): its text, sources, feedback and
 * time; a passage open beside it stays only when this version cites it too. `isLast`: the list's
 * preview should follow.
 */
export function showStoredVersion(context: Context, message: Message): { change: Change; isLast: boolean } {
  const index = context.messages.findIndex((m) => m.id === message._id)
  if (index === -1) return { change: {}, isLast: false }
  const shown = toMessageItem(message)
  return {
    change: withMessages(
      context,
      mapMessage(context, shown.id, () => shown),
    ),
    isLast: index === context.messages.length - 1,
  }
}
