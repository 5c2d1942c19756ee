/**
 * What the chat views read off a chat snapshot, beyond plain context fields: whether a reply is
 * awaited or being written in the conversation on screen, which answer may be written again, and
 * the open conversation's title. Pure functions of the snapshot, for `useSelector`.
 */
import type { Scope, Source } from '#contracts/chat.ts'
import type { ChatSnapshot } from './chat-machine.ts'
import { answerIdOf, canRegenerate } from './chat-model.ts'
import { scopeOnScreen } from './chat-scope.ts'
import type { MessageItem } from './chat-types.ts'

/**
 * The typing indicator (product §2): a reply is awaited for the conversation on screen and none of
 * it has arrived yet (then the growing answer shows instead).
 */
export function isAwaitingReplyHere(snapshot: ChatSnapshot): boolean {
  const { outgoing, messages, regenerating } = snapshot.context
  if (!snapshot.hasTag('sending')) return false
  if (regenerating)
    return messages.some((m) => m.id === regenerating.messageId && m.streaming && m.content === '')
  return (
    outgoing !== null &&
    messages.some((m) => m.id === outgoing.tempId) &&
    !messages.some((m) => m.id === answerIdOf(outgoing.tempId))
  )
}

/** An answer is being written in the conversation on screen: the Stop button shows. */
export function isStreamingHere(snapshot: ChatSnapshot): boolean {
  const { outgoing, messages, regenerating } = snapshot.context
  if (!snapshot.hasTag('streaming')) return false
  if (regenerating) return messages.some((m) => m.id === regenerating.messageId)
  return outgoing !== null && messages.some((m) => m.id === outgoing.tempId)
}

/** The answer Regenerate may write again (the last one), when nothing else is under way. */
export function regenerableIdOf(snapshot: ChatSnapshot): string | null {
  const last = snapshot.context.messages.at(-1)
  return last && !snapshot.hasTag('loading') && canRegenerate(snapshot.context, last.id) ? last.id : null
}

/** The open conversation's title, null for a new chat. */
export function openTitleOf(snapshot: ChatSnapshot): string | null {
  const { conversations, selectedConversationId } = snapshot.context
  return conversations.find((c) => c.id === selectedConversationId)?.title ?? null
}

/** The passage open beside the conversation, with the answer that cites it; null when none is. */
export function openSourceOf(snapshot: ChatSnapshot): { message: MessageItem; source: Source } | null {
  const open = snapshot.context.openSource
  if (!open) return null
  const message = snapshot.context.messages.find((m) => m.id === open.messageId)
  const source = message?.sources.find((s) => s.chunkId === open.chunkId)
  return message && source ? { message, source } : null
}

/** The file attached in a new chat is being uploaded, before its message is sent. */
export function isAttachingHere(snapshot: ChatSnapshot): boolean {
  return snapshot.matches({ reply: 'uploadingAttachment' })
}

/** How far asking why an answer was disliked is (D93): the form, sending, failed, thanks. */
export type ReasonStatus = 'asking' | 'sending' | 'failed' | 'thanked'

/** The dislike whose reason is asked for, and how far that is; null when none is. */
export function reasonAskOf(snapshot: ChatSnapshot): { messageId: string; status: ReasonStatus } | null {
  const messageId = snapshot.context.reasonFor
  const status = snapshot.value.dislikeReason
  if (messageId === null || status === 'closed') return null
  return { messageId, status }
}

/** What the chat on screen searches (D70): its documents, or null for the whole library. */
export function scopeOf(snapshot: ChatSnapshot): Scope | null {
  return scopeOnScreen(snapshot.context)
}

/** Equal when they name the same documents in the same order (for useSelector: no render per token). */
export function sameScope(a: Scope | null, b: Scope | null): boolean {
  if (a === null || b === null) return a === b
  return (
    a.documents.length === b.documents.length &&
    a.documents.every((d, i) => d.id === b.documents[i]?.id && d.name === b.documents[i]?.name)
  )
}

/** A change of the open conversation's scope is being saved: its chips wait. */
export function isSavingScope(snapshot: ChatSnapshot): boolean {
  return snapshot.context.savingScopeOf !== null
}

/** The conversation open in the chat, null for a new chat. */
export function selectedConversationIdOf(snapshot: ChatSnapshot): string | null {
  return snapshot.context.selectedConversationId
}
