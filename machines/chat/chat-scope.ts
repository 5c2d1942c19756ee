/**
 * Pure rules for what the chat on screen searches (D70): the open conversation's scope (the
 * server's, changed through it) or, for a new chat, the draft scope its first message creates the
 * conversation with; the chips' documents; and the sentences shown about them.
 */
import { SCOPE_MAX_DOCUMENTS, type Scope, type ScopeDocument } from '#contracts/chat.ts'
import { messageOf, statusOf } from '#machines/shared/effects.ts'
import type { ConversationScopeContext } from './chat-types.ts'

type ScopeContext = Pick<ConversationScopeContext, 'conversationId' | 'scope' | 'draftScope'>

export const SCOPE_NOTICES = {
  full: `A conversation can search at most ${SCOPE_MAX_DOCUMENTS} documents.`,
  saveFailed: 'Could not change the documents this conversation searches. Try again.',
  /** A chosen document the server no longer has (deleted since it was chosen). */
  gone: (name: string) =>
    `“${name}” is no longer in your library, so it was taken out of this chat’s documents. Send again to ask about the others, or about all your documents.`,
} as const

/** What the chat on screen searches: its documents, or null for the whole library. */
export function scopeOnScreen(context: ScopeContext): Scope | null {
  return context.conversationId === null ? draftAsScope(context.draftScope) : context.scope
}

function draftAsScope(documents: ScopeDocument[]): Scope | null {
  return documents.length === 0 ? null : { documentIds: documents.map((d) => d.id), documents }
}

/** The documents as chips: those the scope names (a scope's names may lag its ids only while it saves). */
export function scopeDocuments(scope: Scope | null): ScopeDocument[] {
  return scope?.documents ?? []
}

/** `documents` and `document`, once each, in the order chosen. */
export function withDocument(documents: ScopeDocument[], document: ScopeDocument): ScopeDocument[] {
  return documents.some((d) => d.id === document.id) ? documents : [...documents, document]
}

export function withoutDocument(documents: ScopeDocument[], documentId: string): ScopeDocument[] {
  return documents.filter((d) => d.id !== documentId)
}

/** At most SCOPE_MAX_DOCUMENTS documents, each once: what "Ask about" starts a chat with. */
export function distinctDocuments(documents: ScopeDocument[]): ScopeDocument[] {
  return documents.reduce(withDocument, [] as ScopeDocument[]).slice(0, SCOPE_MAX_DOCUMENTS)
}

/** Whether one more document fits what the chat on screen searches. */
export function hasRoomFor(context: ScopeContext, document: ScopeDocument): boolean {
  const documents = scopeDocuments(scopeOnScreen(context))
  return documents.some((d) => d.id === document.id) || documents.length < SCOPE_MAX_DOCUMENTS
}

/**
 * A conversation that could not be created because a chosen document is gone (the server's 400
 * names its id): that document leaves the draft, and a sentence says which one. Null for any
 * other failure.
 */
export function refusedDraftDocument(
  context: ScopeContext,
  error: unknown,
): Pick<ConversationScopeContext, 'draftScope' | 'scopeNotice'> | null {
  const message = messageOf(error)
  if (statusOf(error) !== 400 || !message) return null
  const gone = context.draftScope.find((d) => message.includes(d.id))
  if (!gone) return null
  return {
    draftScope: withoutDocument(context.draftScope, gone.id),
    scopeNotice: SCOPE_NOTICES.gone(gone.name),
  }
}
