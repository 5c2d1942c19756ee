/**
 * Facades over the chat actor: the conversation on screen (Chat view) and the conversation list
 * (History, Recent Conversations). Views call these intents; they never send raw events.
 * Switching dashboard sections is the dashboard facade's job (use-dashboard.ts).
 */
import { useMemo } from 'react'
import type { DislikeReasonRequest, Feedback } from '#contracts/chat.ts'
import {
  canSend,
  conversationOf,
  deletingConversationIdsOf,
  isAttachingHere,
  isAwaitingReplyHere,
  isLoading,
  isMissingConversation,
  isSavingScope,
  isStreamingHere,
  listOf,
  openAssistantOf,
  openSourceOf,
  openTitleOf,
  partsOf,
  ratingMessageIdsOf,
  reasonAskOf,
  regenerableIdOf,
  sameAssistant,
  sameIds,
  sameScope,
  scopeOf,
  selectedConversationIdOf,
  senderOf,
  switchingVersionIdsOf,
} from '#machines/chat/chat-selectors.ts'
import { ChatActor } from './chat-actor.ts'
import { preloadMarkdown } from './message-bubble.tsx'

export function useConversation() {
  const chat = ChatActor.useActorRef()
  // One set of intents per actor: the answers already on screen (memoised bubbles) do not render
  // again with each token of a new one.
  const intents = useMemo(
    () => ({
      /** True when the machine took the message (not blank, not while loading); it clears the draft. */
      send(content: string): boolean {
        if (!canSend(chat.getSnapshot(), content)) return false
        chat.send({ type: 'chat.send', content })
        preloadMarkdown()
        return true
      },
      rename(title: string) {
        const conversationId = selectedConversationIdOf(chat.getSnapshot())
        if (conversationId) chat.send({ type: 'chat.rename', conversationId, title })
      },
      type(text: string) {
        chat.send({ type: 'chat.type', text })
        // A question is being written: its answer will want the markdown renderer.
        preloadMarkdown()
      },
      stop() {
        chat.send({ type: 'chat.stop' })
      },
      regenerate(messageId: string) {
        chat.send({ type: 'chat.regenerate', messageId })
      },
      rate(messageId: string, feedback: Feedback) {
        chat.send({ type: 'chat.rate', messageId, feedback })
      },
      /** ‹ 1/2 ›: shows another version of an answer (stored, D93). */
      showVersion(messageId: string, version: number) {
        chat.send({ type: 'chat.showVersion', messageId, version })
      },
      /** Why the answer just disliked did not help. */
      explainDislike(messageId: string, why: DislikeReasonRequest) {
        chat.send({ type: 'chat.explainDislike', messageId, why })
      },
      skipReason() {
        chat.send({ type: 'chat.skipReason' })
      },
      showSource(messageId: string, chunkId: string) {
        chat.send({ type: 'chat.showSource', messageId, chunkId })
      },
      closeSource() {
        chat.send({ type: 'chat.closeSource' })
      },
      /** Takes the file attached in a new chat back out of the composer. */
      detach() {
        chat.send({ type: 'chat.detach' })
      },
      removeDocument(documentId: string) {
        chat.send({ type: 'chat.scopeRemove', documentId })
      },
      /** Back to the whole library. */
      searchEverything() {
        chat.send({ type: 'chat.scopeClear' })
      },
    }),
    [chat],
  )
  return {
    /** Nothing said yet in the chat on screen (its messages are read by useConversationMessages). */
    empty: ChatActor.useSelector((snapshot) => conversationOf(snapshot).messages.length === 0),
    /** product §2: the input is disabled while loading (a reply, or a conversation's messages). */
    loading: ChatActor.useSelector(isLoading),
    /** The address named a conversation that does not exist (or was deleted) for this person. */
    missing: ChatActor.useSelector(isMissingConversation),
    awaitingReply: ChatActor.useSelector(isAwaitingReplyHere),
    /** An answer is being written here: Stop shows instead of Send. */
    streaming: ChatActor.useSelector(isStreamingHere),
    /** What is typed; a message that could not be sent comes back into it. */
    draft: ChatActor.useSelector((snapshot) => senderOf(snapshot).draft),
    /** The server's sentence when it would not start an answer now (too many at once), else null. */
    notice: ChatActor.useSelector((snapshot) => senderOf(snapshot).notice),
    /** The answer Regenerate may write again (the last one), when nothing else is under way. */
    regenerableId: ChatActor.useSelector(regenerableIdOf),
    ratingMessageIds: ChatActor.useSelector(ratingMessageIdsOf, sameIds),
    /** Answers whose other version is on its way. */
    switchingVersionIds: ChatActor.useSelector(switchingVersionIdsOf, sameIds),
    /** The dislike whose reason is asked for, and how far that is; null when none is. */
    reasonAsk: ChatActor.useSelector(reasonAskOf, sameReasonAsk),
    /** The assistant the chat on screen is with (issue 36), null for none. */
    assistant: ChatActor.useSelector(openAssistantOf, sameAssistant),
    /** The open conversation's title, null for a new chat. */
    title: ChatActor.useSelector(openTitleOf),
    /** The file waiting in a new chat's composer (with why its upload failed, if it did). */
    attachment: ChatActor.useSelector((snapshot) => senderOf(snapshot).attachment),
    attaching: ChatActor.useSelector(isAttachingHere),
    /** The files uploaded into the conversation on screen. */
    files: ChatActor.useSelector((snapshot) => conversationOf(snapshot).files),
    /** The passage open beside the conversation, with the answer citing it. */
    openSource: ChatActor.useSelector(openSourceOf, sameOpenSource),
    /** What the chat on screen searches (D70): its documents, or null for the whole library. */
    scope: ChatActor.useSelector(scopeOf, sameScope),
    scopeNotice: ChatActor.useSelector((snapshot) => conversationOf(snapshot).scopeNotice),
    savingScope: ChatActor.useSelector(isSavingScope),
    ...intents,
  }
}

/**
 * The messages of the chat on screen, apart from useConversation: they change with every token
 * of an answer, and only the list needs drawing again then, not the header, chips and composer.
 */
export function useConversationMessages() {
  return ChatActor.useSelector((snapshot) => conversationOf(snapshot).messages)
}

function sameReasonAsk(a: ReturnType<typeof reasonAskOf>, b: ReturnType<typeof reasonAskOf>) {
  return a?.messageId === b?.messageId && a?.status === b?.status
}

function sameOpenSource(a: ReturnType<typeof openSourceOf>, b: ReturnType<typeof openSourceOf>) {
  return a?.message === b?.message && a?.source === b?.source
}

export function useConversations() {
  const chat = ChatActor.useActorRef()
  return {
    conversations: ChatActor.useSelector((snapshot) => listOf(snapshot).conversations),
    loaded: ChatActor.useSelector((snapshot) => !partsOf(snapshot).list.hasTag('conversationsLoading')),
    selectedConversationId: ChatActor.useSelector(selectedConversationIdOf),
    deletingConversationIds: ChatActor.useSelector(deletingConversationIdsOf, sameIds),
    remove(conversationId: string) {
      chat.send({ type: 'chat.delete', conversationId })
    },
    searchQuery: ChatActor.useSelector((snapshot) => listOf(snapshot).searchQuery),
    /** What the last search found (kept while the next one runs); null before the first answers or with no search. */
    searchHits: ChatActor.useSelector((snapshot) => listOf(snapshot).searchHits),
    /** A search typed is waiting for its pause or for the server. */
    searching: ChatActor.useSelector((snapshot) => partsOf(snapshot).list.hasTag('searching')),
    search(query: string) {
      chat.send({ type: 'chat.search', query })
    },
  }
}
