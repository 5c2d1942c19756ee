/**
 * What the chat views read off a chat snapshot: each actor's part (the list, the open
 * conversation, the sender), and what is read across them: whether a reply is awaited or being
 * written in the conversation on screen, which answer may be written again, what is busy (read
 * off the running child actors). Pure functions of the snapshot, for `useSelector`.
 */
import type { ConversationAssistant, Scope, Source } from '#contracts/chat.ts'
import type { ChatSnapshot } from './chat-machine.ts'
import { answerIdOf, canRegenerate } from './chat-model.ts'
import { scopeOnScreen } from './chat-scope.ts'
import type {
  ConversationScopeContext,
  DislikeReasonContext,
  MessageItem,
  OpenConversationContext,
} from './chat-types.ts'
import { type ConversationListSnapshot, deletingIdsOf } from './conversation-list-machine.ts'
import { isSavingScopeIn } from './conversation-scope-machine.ts'
import { rateActorId, versionActorId } from './open-conversation-actions.ts'
import {
  conversationScopeOf,
  dislikeReasonOf,
  type OpenConversationSnapshot,
  runningFor,
} from './open-conversation-machine.ts'
import type { SenderSnapshot } from './sender-machine.ts'
import { isSendableText } from './sender-model.ts'

/** The three actors' snapshots, as they are now. */
export function partsOf(snapshot: ChatSnapshot): {
  list: ConversationListSnapshot
  conversation: OpenConversationSnapshot
  sender: SenderSnapshot
} {
  const { conversationList, conversation, sender } = snapshot.children
  if (!conversationList || !conversation || !sender) throw new Error('chat: the chat actor is not running')
  return {
    list: conversationList.getSnapshot(),
    conversation: conversation.getSnapshot(),
    sender: sender.getSnapshot(),
  }
}

export const listOf = (snapshot: ChatSnapshot) => partsOf(snapshot).list.context
/** The open conversation as views read it: its messages and files, with what it searches and the dislike asked about. */
export function conversationOf(
  snapshot: ChatSnapshot,
): OpenConversationContext & ConversationScopeContext & DislikeReasonContext {
  const { conversation } = partsOf(snapshot)
  return {
    ...conversation.context,
    ...conversationScopeOf(conversation).context,
    ...dislikeReasonOf(conversation).context,
  }
}
export const senderOf = (snapshot: ChatSnapshot) => partsOf(snapshot).sender.context

/** The open conversation's id; null for a new chat. */
export function selectedConversationIdOf(snapshot: ChatSnapshot): string | null {
  return snapshot.context.selectedConversationId
}

/** product §2: the composer waits while a reply is on its way or a conversation's messages load. */
export function isLoading(snapshot: ChatSnapshot): boolean {
  const { conversation, sender } = partsOf(snapshot)
  return conversation.hasTag('loading') || sender.hasTag('loading')
}

/** The address named a conversation that does not exist (or no longer does) for this person. */
export function isMissingConversation(snapshot: ChatSnapshot): boolean {
  return partsOf(snapshot).conversation.hasTag('missing')
}

/** The chat would take this message now (not blank, not while loading); it clears the composer. */
export function canSend(snapshot: ChatSnapshot, content: string): boolean {
  return isSendableText(content) && !isLoading(snapshot)
}

/**
 * The typing indicator (product §2): a reply is awaited for the conversation on screen and none of
 * it has arrived yet (then the growing answer shows instead).
 */
export function isAwaitingReplyHere(snapshot: ChatSnapshot): boolean {
  const { conversation, sender } = partsOf(snapshot)
  const { outgoing, regenerating } = sender.context
  const { messages } = conversation.context
  if (!sender.hasTag('sending')) return false
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
  const { conversation, sender } = partsOf(snapshot)
  const { outgoing, regenerating } = sender.context
  const { messages } = conversation.context
  if (!sender.hasTag('streaming')) return false
  if (regenerating) return messages.some((m) => m.id === regenerating.messageId)
  return outgoing !== null && messages.some((m) => m.id === outgoing.tempId)
}

/** The answer Regenerate may write again (the last one), when nothing else is under way. */
export function regenerableIdOf(snapshot: ChatSnapshot): string | null {
  const { conversation } = partsOf(snapshot)
  const { messages, conversationId } = conversation.context
  const last = messages.at(-1)
  if (!last || conversationId === null || isLoading(snapshot)) return null
  const switching = runningFor(conversation, versionActorId).includes(last.id)
  return canRegenerate(messages, last.id, switching) ? last.id : null
}

/** The open conversation's title, null for a new chat. */
export function openTitleOf(snapshot: ChatSnapshot): string | null {
  const id = selectedConversationIdOf(snapshot)
  return listOf(snapshot).conversations.find((c) => c.id === id)?.title ?? null
}

/**
 * The assistant the chat on screen is with (issue 36): the open conversation's, or the one a new
 * chat was started with; null for none. Its name and `deleted` are the only things views read.
 */
export function openAssistantOf(snapshot: ChatSnapshot): ConversationAssistant | null {
  const id = selectedConversationIdOf(snapshot)
  if (id === null) {
    const draft = conversationScopeOf(partsOf(snapshot).conversation).context.draftAssistant
    return draft ? { ...draft, deleted: false } : null
  }
  return listOf(snapshot).conversations.find((c) => c.id === id)?.assistant ?? null
}

/** Equal when they name the same assistant the same way (for useSelector). */
export function sameAssistant(a: ConversationAssistant | null, b: ConversationAssistant | null): boolean {
  if (a === null || b === null) return a === b
  return a.id === b.id && a.name === b.name && a.deleted === b.deleted
}

/** The passage open beside the conversation, with the answer that cites it; null when none is. */
export function openSourceOf(snapshot: ChatSnapshot): { message: MessageItem; source: Source } | null {
  const { openSource: open, messages } = conversationOf(snapshot)
  if (!open) return null
  const message = messages.find((m) => m.id === open.messageId)
  const source = message?.sources.find((s) => s.chunkId === open.chunkId)
  return message && source ? { message, source } : null
}

/** The file attached in a new chat is being uploaded, before its message is sent. */
export function isAttachingHere(snapshot: ChatSnapshot): boolean {
  return partsOf(snapshot).sender.matches('uploadingAttachment')
}

/** How far asking why an answer was disliked is (D93): the form, sending, failed, thanks. */
export type ReasonStatus = 'asking' | 'sending' | 'failed' | 'thanked'

/** The dislike whose reason is asked for, and how far that is; null when none is. */
export function reasonAskOf(snapshot: ChatSnapshot): { messageId: string; status: ReasonStatus } | null {
  const reason = dislikeReasonOf(partsOf(snapshot).conversation)
  const messageId = reason.context.reasonFor
  const status = reason.value
  if (messageId === null || status === 'closed') return null
  return { messageId, status }
}

/** What the chat on screen searches (D70): its documents, or null for the whole library. */
export function scopeOf(snapshot: ChatSnapshot): Scope | null {
  return scopeOnScreen(conversationScopeOf(partsOf(snapshot).conversation).context)
}

/** Equal when they name the same documents in the same order (for useSelector: no render per token). */
export function sameScope(a: Scope | null, b: Scope | null): boolean {
  if (a === null || b === null) return a === b
  return (
    a.documents.length === b.documents.length &&
    a.documents.every((d, i) => d.id === b.documents[i]?.id && d.name === b.documents[i]?.name)
  )
}

/** A change of the open conversation's scope is being saved (its child actor runs): its chips wait. */
export function isSavingScope(snapshot: ChatSnapshot): boolean {
  return isSavingScopeIn(conversationScopeOf(partsOf(snapshot).conversation))
}

/** Conversations being deleted, answers being rated, answers switching version: their actors run. */
export function deletingConversationIdsOf(snapshot: ChatSnapshot): string[] {
  return deletingIdsOf(partsOf(snapshot).list)
}
export function ratingMessageIdsOf(snapshot: ChatSnapshot): string[] {
  return runningFor(partsOf(snapshot).conversation, rateActorId)
}
export function switchingVersionIdsOf(snapshot: ChatSnapshot): string[] {
  return runningFor(partsOf(snapshot).conversation, versionActorId)
}

/** Equal lists of ids (for useSelector: a new array each time is not a change). */
export function sameIds(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i])
}
