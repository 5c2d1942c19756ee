/**
 * The browser half of chat (product §4, §5, §8): the conversation list (loaded once, when the actor
 * starts with the dashboard), the conversation on screen, and the five send steps. Three parallel
 * regions, so a reply keeps arriving while another conversation is opened; deletions and feedback
 * run as spawned reporting requests. Every failure is logged only. Effects (chat-effects.ts) are
 * injected with provideChatMachine(deps); what views read off a snapshot is in chat-selectors.ts.
 */
import { and, assign, emit, enqueueActions, not, type SnapshotFrom, setup, stateIn, stopChild } from 'xstate'
import {
  type Conversation,
  type DislikeReasonRequest,
  DislikeReasonRequestSchema,
  type Feedback,
  MESSAGE_MAX_LENGTH,
  type Message,
  type ScopeDocument,
  type SearchHit,
  type SendMessageResponse,
  type Source,
} from '#contracts/chat.ts'
import type { LibraryDocument } from '#contracts/documents.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { failureOf } from '#machines/upload/upload-machine.ts'
import type { FileFacts } from '#machines/upload/upload-rules.ts'
import { chatActions, chatActors, reportingNotProvided } from './chat-effects.ts'
import {
  adoptCreatedConversation,
  adoptStoredStop,
  appendRegenerated,
  appendToken,
  applyReply,
  canRegenerate,
  canShowVersion,
  createdConversationOf,
  dropOutgoing,
  forgetCreatedConversation,
  keepStopped,
  mergeLoadedConversations,
  noticeOf,
  outgoingOf,
  outgoingTarget,
  plainText,
  restoreRegenerated,
  showStoredVersion,
  startRegenerating,
  startSending,
  stopRegenerated,
  storedStop,
  storeRegenerated,
  storeStreamSources,
  toConversationItem,
  toMessageItem,
  withFeedback,
  without,
  withoutConversation,
} from './chat-model.ts'
import {
  distinctDocuments,
  hasRoomFor,
  refusedDraftDocument,
  SCOPE_NOTICES,
  scopeDocuments,
  scopeOnScreen,
  withDocument,
  withoutDocument,
} from './chat-scope.ts'
import type { ChatContext, ChatDeps, ChatEmitted, ChatEvent } from './chat-types.ts'

// Params builders for the many actions that take the event's ids or error as they are.
const conversationOf = ({ event }: { event: { conversationId: string } }) => ({
  conversationId: event.conversationId,
})
const messageOf = ({ event }: { event: { messageId: string } }) => ({ messageId: event.messageId })
const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

const deleteActorId = (conversationId: string) => `deleteConversation:${conversationId}`
const rateActorId = (messageId: string) => `setFeedback:${messageId}`
const versionActorId = (messageId: string) => `showVersion:${messageId}`

/**
 * After a Stop the server stores the answer so far when it sees the connection close, a moment
 * after the browser closed it: the conversation's messages are fetched until it is there, this
 * long apart, at most MAX_STOP_CHECKS times (then the bubbles keep their temporary ids, as before).
 */
export const STOP_CHECK_DELAY_MS = 150
export const MAX_STOP_CHECKS = 10

function isSendableText(text: string): boolean {
  const content = text.trim()
  return content !== '' && content.length <= MESSAGE_MAX_LENGTH
}

/** How long History's search waits after a keystroke before it asks the server. */
export const SEARCH_PAUSE_MS = 250
/** How long the thanks for a dislike's reason stays under the answer. */
export const REASON_THANKS_MS = 4000

const chatSetup = setup({
  delays: { searchPause: SEARCH_PAUSE_MS, reasonThanks: REASON_THANKS_MS },
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    emitted: {} as ChatEmitted,
    tags: {} as 'loading' | 'sending' | 'streaming' | 'conversationsLoading' | 'searching',
  },
  actors: {
    listConversations: notProvided<Conversation[]>('listConversations'),
    listMessages: notProvided<Message[], { conversationId: string }>('listMessages'),
    loadConversation: notProvided<
      { messages: Message[]; files: LibraryDocument[] },
      { conversationId: string }
    >('loadConversation'),
    uploadAttachment: reportingNotProvided<{ conversationId: string; name: string; content: Blob }>(
      'uploadAttachment',
    ),
    createConversation: notProvided<Conversation, { title: string; documentIds: string[] }>(
      'createConversation',
    ),
    sendMessage: reportingNotProvided<{ conversationId: string; content: string }>('sendMessage'),
    regenerate: reportingNotProvided<{ conversationId: string; messageId: string }>('regenerate'),
    deleteConversation: reportingNotProvided<{ conversationId: string }>('deleteConversation'),
    setFeedback: reportingNotProvided<{ messageId: string; feedback: Feedback }>('setFeedback'),
    showVersion: reportingNotProvided<{ messageId: string; version: number }>('showVersion'),
    explainDislike: notProvided<Message, { messageId: string; why: DislikeReasonRequest }>('explainDislike'),
    renameConversation: reportingNotProvided<{ conversationId: string; title: string }>('renameConversation'),
    setScope: reportingNotProvided<{ conversationId: string; documentIds: string[] | null }>('setScope'),
    searchConversations: notProvided<SearchHit[], { query: string }>('searchConversations'),
  },
  actions: {
    storeLoadedConversations: assign(({ context }, params: { conversations: Conversation[] }) => ({
      conversations: mergeLoadedConversations(context.conversations, params.conversations),
    })),
    openConversation: assign((_, params: { conversationId: string }) => ({
      selectedConversationId: params.conversationId,
      messages: [],
      files: [],
      attachment: null,
      openSource: null,
    })),
    storeFiles: assign((_, params: { files: LibraryDocument[] }) => ({ files: params.files })),
    addFile: assign(({ context }, params: { conversationId: string; document: LibraryDocument }) =>
      context.selectedConversationId === params.conversationId
        ? { files: [...context.files.filter((f) => f.id !== params.document.id), params.document] }
        : {},
    ),
    storeAttachment: assign((_, params: { file: FileFacts; content: Blob }) => ({
      attachment: { file: params.file, content: params.content, error: null },
    })),
    clearAttachment: assign({ attachment: null }),
    storeAttachmentError: assign(({ context }, params: { error: unknown }) => ({
      attachment: context.attachment && { ...context.attachment, error: failureOf(params.error) },
    })),
    storeMessages: assign((_, params: { messages: Message[] }) => ({
      messages: params.messages.map(toMessageItem),
    })),
    clearConversation: assign({ selectedConversationId: null, messages: [], files: [], openSource: null }),
    showSource: assign((_, params: { messageId: string; chunkId: string }) => ({
      openSource: { messageId: params.messageId, chunkId: params.chunkId },
    })),
    closeSource: assign({ openSource: null }),
    storeStreamSources: assign(({ context }, params: { sources: Source[] }) =>
      storeStreamSources(context, params.sources),
    ),
    showOutgoing: assign(({ context }, params: { content: string }) => startSending(context, params.content)),
    storeCreatedConversation: assign(({ context }, params: { conversation: Conversation }) =>
      adoptCreatedConversation(context, params.conversation),
    ),
    storeReply: assign(({ context }, params: { reply: SendMessageResponse }) =>
      applyReply(context, params.reply),
    ),
    dropOutgoing: assign(({ context }) => dropOutgoing(context)),
    appendToken: assign(({ context }, params: { text: string }) => appendToken(context, params.text)),
    keepStopped: assign(({ context }) => keepStopped(context)),
    storeDraft: assign((_, params: { text: string }) => ({ draft: params.text })),
    storeNotice: assign((_, params: { error: unknown }) => ({ notice: noticeOf(params.error) })),
    startRegenerating: assign(({ context }, params: { messageId: string }) =>
      startRegenerating(context, params.messageId),
    ),
    appendRegenerated: assign(({ context }, params: { text: string }) =>
      appendRegenerated(context, params.text),
    ),
    storeRegenerated: assign(({ context }, params: { reply: SendMessageResponse }) =>
      storeRegenerated(context, params.reply),
    ),
    restoreRegenerated: assign(({ context }) => restoreRegenerated(context)),
    stopRegenerated: assign(({ context }) => stopRegenerated(context)),
    forgetCreatedConversation: assign(({ context }) => forgetCreatedConversation(context)),
    adoptStoredStop: assign(({ context }, params: { messages: Message[] }) =>
      adoptStoredStop(context, params.messages),
    ),
    countStopCheck: assign(({ context }) => ({
      stoppedSend: context.stoppedSend && { ...context.stoppedSend, checks: context.stoppedSend.checks + 1 },
    })),
    forgetStoppedSend: assign({ stoppedSend: null }),
    markDeleting: assign(({ context }, params: { conversationId: string }) => ({
      deletingConversationIds: [...context.deletingConversationIds, params.conversationId],
    })),
    settleDeleting: assign(({ context }, params: { conversationId: string }) => ({
      deletingConversationIds: without(context.deletingConversationIds, params.conversationId),
    })),
    removeConversation: assign(({ context }, params: { conversationId: string }) => ({
      conversations: withoutConversation(context.conversations, params.conversationId),
    })),
    markRating: assign(({ context }, params: { messageId: string }) => ({
      ratingMessageIds: [...context.ratingMessageIds, params.messageId],
    })),
    settleRating: assign(({ context }, params: { messageId: string }) => ({
      ratingMessageIds: without(context.ratingMessageIds, params.messageId),
    })),
    storeFeedback: assign(({ context }, params: { messageId: string; feedback: Feedback | null }) => ({
      messages: withFeedback(context.messages, params.messageId, params.feedback),
    })),
    markSwitching: assign(({ context }, params: { messageId: string }) => ({
      switchingVersionIds: [...context.switchingVersionIds, params.messageId],
    })),
    settleSwitching: assign(({ context }, params: { messageId: string }) => ({
      switchingVersionIds: without(context.switchingVersionIds, params.messageId),
    })),
    storeShownVersion: assign(({ context }, params: { message: Message }) =>
      showStoredVersion(context, params.message),
    ),
    askReason: assign((_, params: { messageId: string }) => ({ reasonFor: params.messageId })),
    forgetReason: assign({ reasonFor: null }),
    storeRenamed: assign(({ context }, params: { conversation: Conversation }) => ({
      conversations: context.conversations.map((s) =>
        s.id === params.conversation._id ? { ...s, title: params.conversation.title } : s,
      ),
    })),
    storeDraftScope: assign((_, params: { documents: ScopeDocument[] }) => ({
      draftScope: params.documents,
      scopeNotice: null,
    })),
    storeScopeNotice: assign((_, params: { notice: string | null }) => ({ scopeNotice: params.notice })),
    /** The server's scope for a conversation, once it has stored it. */
    storeScope: assign(({ context }, params: { conversation: Conversation }) => ({
      conversations: context.conversations.map((c) =>
        c.id === params.conversation._id ? { ...c, scope: params.conversation.scope ?? null } : c,
      ),
      savingScopeOf: context.savingScopeOf === params.conversation._id ? null : context.savingScopeOf,
    })),
    settleSavingScope: assign(({ context }, params: { conversationId: string }) => ({
      savingScopeOf: context.savingScopeOf === params.conversationId ? null : context.savingScopeOf,
    })),
    /** A conversation that could not be created for a gone document: that document leaves the draft. */
    dropRefusedDocument: assign(({ context }, params: { error: unknown }) => ({
      ...refusedDraftDocument(context, params.error),
    })),
    // The last hits stay while the next keystroke's search runs (the list does not flash empty);
    // a cleared search forgets them.
    storeSearchQuery: assign(({ context }, params: { query: string }) => {
      const searchQuery = params.query.trim()
      return { searchQuery, searchHits: searchQuery === '' ? null : context.searchHits }
    }),
    storeSearchHits: assign((_, params: { hits: SearchHit[] }) => ({
      searchHits: params.hits.map((hit) => ({
        conversation: toConversationItem(hit.session),
        snippet: plainText(hit.snippet),
      })),
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    /** product §5: blank or whitespace-only text is not sent; nor is text the server would refuse. */
    isSendable: ({ event }) => event.type === 'chat.send' && isSendableText(event.content),
    isConversationIdle: stateIn({ conversation: 'idle' }),
    hasAnswerSoFar: ({ context }) => (context.outgoing?.answer.trim() ?? '') !== '',
    hasStoppedSend: ({ context }) => context.stoppedSend !== null,
    isStopStored: ({ context }, params: { messages: Message[] }) =>
      storedStop(context, params.messages) !== null,
    canCheckStopAgain: ({ context }) => (context.stoppedSend?.checks ?? MAX_STOP_CHECKS) < MAX_STOP_CHECKS,
    canRegenerate: ({ context, event }) =>
      event.type === 'chat.regenerate' && canRegenerate(context, event.messageId),
    hasOpenConversation: ({ context }) => context.selectedConversationId !== null,
    hasAttachment: ({ context }) => context.attachment !== null,
    isSourceOnScreen: ({ context }, params: { messageId: string; chunkId: string }) =>
      context.messages.some(
        (m) => m.id === params.messageId && m.sources.some((s) => s.chunkId === params.chunkId),
      ),
    isOpenConversation: ({ context }, params: { conversationId: string }) =>
      context.selectedConversationId === params.conversationId,
    canDelete: ({ context }, params: { conversationId: string }) =>
      !context.deletingConversationIds.includes(params.conversationId),
    canShowVersion: ({ context, event }) =>
      event.type === 'chat.showVersion' && canShowVersion(context, event.messageId, event.version),
    isReplyIdle: stateIn({ reply: 'idle' }),
    isReasonFor: ({ context }, params: { messageId: string }) => context.reasonFor === params.messageId,
    /** A reason or a note the server takes (the contract's rules), for the answer asked about. */
    canExplain: ({ context, event }) =>
      event.type === 'chat.explainDislike' &&
      event.messageId === context.reasonFor &&
      DislikeReasonRequestSchema.safeParse(event.why).success,
    /** One scope change at a time; a new chat's draft changes at once. */
    canEditScope: ({ context }) => context.savingScopeOf === null || context.selectedConversationId === null,
    hasNoRoomFor: ({ context }, params: { document: ScopeDocument }) => !hasRoomFor(context, params.document),
    canRate: ({ context }, params: { messageId: string; feedback: Feedback }) =>
      !context.ratingMessageIds.includes(params.messageId) &&
      context.messages.some((m) => m.id === params.messageId && m.feedback !== params.feedback),
  },
})

/**
 * A conversation created for a message that got no answer is deleted again (product §4 step 5); when
 * it is the one on screen, the app hears that it closed.
 */
const deleteCreatedConversation = chatSetup.enqueueActions(({ context, enqueue }) => {
  const conversationId = createdConversationOf(context)
  if (!conversationId) return
  enqueue.spawnChild('deleteConversation', { id: deleteActorId(conversationId), input: { conversationId } })
  if (context.selectedConversationId === conversationId)
    enqueue.emit({ type: 'chat.conversationClosed', conversationId })
})

/**
 * Changes what the chat on screen searches to what `change` makes of its documents. A new chat's
 * draft changes at once. An open conversation's scope is saved on the server (none left: the
 * whole library), and not optimistically: the chips change once it is stored, one change at a
 * time (canEditScope), so two quick changes never race each other to the server.
 */
const changeScope = (change: (documents: ScopeDocument[], event: ChatEvent) => ScopeDocument[]) =>
  chatSetup.enqueueActions(({ context, event, enqueue }) => {
    const conversationId = context.selectedConversationId
    if (conversationId === null) {
      enqueue.assign({ draftScope: change(context.draftScope, event), scopeNotice: null })
      return
    }
    const documents = change(scopeDocuments(scopeOnScreen(context)), event)
    enqueue.assign({ savingScopeOf: conversationId, scopeNotice: null })
    enqueue.spawnChild('setScope', {
      id: `setScope:${conversationId}`,
      input: { conversationId, documentIds: documents.length === 0 ? null : documents.map((d) => d.id) },
    })
  })

/**
 * Sending into a conversation created for this message, on screen: the first message of a new
 * chat started it, and the app hears so (the address becomes the conversation's).
 */
const announceStarted = chatSetup.enqueueActions(({ context, enqueue }) => {
  const conversationId = createdConversationOf(context)
  const { outgoing } = context
  if (!outgoing || outgoing.announced || !conversationId || context.selectedConversationId !== conversationId)
    return
  enqueue.emit({ type: 'chat.conversationStarted', conversationId })
  // Once: a file uploaded first announces it, and the message that follows does not again.
  enqueue.assign({ outgoing: { ...outgoing, announced: true } })
})

export const chatMachine = chatSetup.createMachine({
  id: 'chat',
  type: 'parallel',
  context: {
    conversations: [],
    selectedConversationId: null,
    messages: [],
    outgoing: null,
    regenerating: null,
    stoppedSend: null,
    draft: '',
    notice: null,
    draftScope: [],
    scopeNotice: null,
    savingScopeOf: null,
    sentCount: 0,
    deletingConversationIds: [],
    ratingMessageIds: [],
    switchingVersionIds: [],
    reasonFor: null,
    attachment: null,
    files: [],
    openSource: null,
    searchQuery: '',
    searchHits: null,
  },
  // Each handler sits in the region that owns what it changes: XState only looks at a parallel
  // state's own handlers when no region takes the event, so none are kept at the root.
  states: {
    conversations: {
      initial: 'loading',
      on: {
        'chat.delete': {
          guard: { type: 'canDelete', params: conversationOf },
          actions: [
            { type: 'markDeleting', params: conversationOf },
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('deleteConversation', {
                id: deleteActorId(event.conversationId),
                input: { conversationId: event.conversationId },
              })
            }),
          ],
          description:
            'Not optimistic: the conversation leaves the list once the server has deleted it, so a ' +
            'failure (logged only, product §8) leaves everything as it was.',
        },
        'chat.conversationDeleted': {
          actions: [
            { type: 'removeConversation', params: conversationOf },
            { type: 'settleDeleting', params: conversationOf },
            stopChild(({ event }) => deleteActorId(event.conversationId)),
          ],
        },
        'chat.rename': {
          actions: enqueueActions(({ enqueue, event }) => {
            const title = event.title.trim()
            if (title === '') return
            enqueue.spawnChild('renameConversation', {
              id: `renameConversation:${event.conversationId}:${title}`,
              input: { conversationId: event.conversationId, title },
            })
          }),
          description: 'Not optimistic: the new title shows once the server has stored it.',
        },
        'chat.renamed': {
          actions: { type: 'storeRenamed', params: ({ event }) => ({ conversation: event.conversation }) },
        },
        'chat.renameFailed': { actions: logAs('Renaming a conversation') },
        'chat.deleteFailed': {
          actions: [
            { type: 'settleDeleting', params: conversationOf },
            stopChild(({ event }) => deleteActorId(event.conversationId)),
            logAs('Deleting a conversation'),
          ],
        },
      },
      states: {
        loading: {
          tags: 'conversationsLoading',
          invoke: {
            src: 'listConversations',
            onDone: {
              target: 'loaded',
              actions: {
                type: 'storeLoadedConversations',
                params: ({ event }) => ({ conversations: event.output }),
              },
            },
            onError: {
              target: 'loaded',
              actions: logAs('Loading conversations'),
              description: 'product §8: logged only; the list stays empty.',
            },
          },
        },
        loaded: {
          description: 'product §4: conversations load once, when the dashboard opens; never again.',
        },
      },
    },
    conversation: {
      initial: 'idle',
      on: {
        'chat.type': { actions: { type: 'storeDraft', params: ({ event }) => ({ text: event.text }) } },
        'chat.select': {
          target: '.loadingMessages',
          actions: [
            { type: 'openConversation', params: conversationOf },
            { type: 'storeScopeNotice', params: { notice: null } },
          ],
          description: 'Choosing again while one loads restarts the load for the newest choice.',
        },
        'chat.new': {
          target: '.idle',
          actions: ['clearConversation', { type: 'storeScopeNotice', params: { notice: null } }],
          description:
            'product §2: selecting the chat section clears the messages and the selection. The ' +
            "new chat's draft (its text and its chosen documents) stays, as the typed text always did.",
        },
        'chat.askAbout': {
          target: '.idle',
          actions: [
            'clearConversation',
            {
              type: 'storeDraftScope',
              params: ({ event }) => ({ documents: distinctDocuments(event.documents) }),
            },
            emit({ type: 'chat.askingAbout' }),
          ],
          description: '"Ask about this document": a new chat limited to those documents, on screen.',
        },
        'chat.scopeAdd': [
          { guard: not('canEditScope') },
          {
            guard: { type: 'hasNoRoomFor', params: ({ event }) => ({ document: event.document }) },
            actions: { type: 'storeScopeNotice', params: { notice: SCOPE_NOTICES.full } },
          },
          {
            actions: changeScope((documents, event) =>
              event.type === 'chat.scopeAdd' ? withDocument(documents, event.document) : documents,
            ),
          },
        ],
        'chat.scopeRemove': [
          { guard: not('canEditScope') },
          {
            actions: changeScope((documents, event) =>
              event.type === 'chat.scopeRemove' ? withoutDocument(documents, event.documentId) : documents,
            ),
            description: 'Removing the last document lifts the limit: the whole library again.',
          },
        ],
        'chat.scopeClear': [{ guard: not('canEditScope') }, { actions: changeScope(() => []) }],
        'chat.scopeSaved': {
          actions: [
            { type: 'storeScope', params: ({ event }) => ({ conversation: event.conversation }) },
            stopChild(({ event }) => `setScope:${event.conversation._id}`),
          ],
        },
        'chat.scopeFailed': {
          actions: [
            { type: 'settleSavingScope', params: conversationOf },
            stopChild(({ event }) => `setScope:${event.conversationId}`),
            { type: 'storeScopeNotice', params: { notice: SCOPE_NOTICES.saveFailed } },
            logAs('Changing the documents a conversation searches'),
          ],
        },
        'chat.conversationDeleted': {
          guard: { type: 'isOpenConversation', params: conversationOf },
          target: '.idle',
          actions: [
            'clearConversation',
            emit(({ event }) => ({ type: 'chat.conversationClosed', conversationId: event.conversationId })),
          ],
          description: 'product §4: deleting the open conversation clears it and resets the selection.',
        },
        'chat.showSource': {
          guard: { type: 'isSourceOnScreen', params: ({ event }) => event },
          actions: { type: 'showSource', params: ({ event }) => event },
          description: 'One passage at a time, beside the conversation; another citation replaces it.',
        },
        'chat.closeSource': { actions: 'closeSource' },
        'chat.attach': {
          guard: not('hasOpenConversation'),
          actions: { type: 'storeAttachment', params: ({ event }) => event },
          description: 'Only a new chat takes a file in its composer; an open conversation uploads at once.',
        },
        'chat.detach': { guard: 'isConversationIdle', actions: 'clearAttachment' },
        'chat.fileAdded': { actions: { type: 'addFile', params: ({ event }) => event } },
        'chat.rate': {
          guard: {
            type: 'canRate',
            params: ({ event }) => ({ messageId: event.messageId, feedback: event.feedback }),
          },
          actions: [
            { type: 'markRating', params: messageOf },
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('setFeedback', {
                id: rateActorId(event.messageId),
                input: { messageId: event.messageId, feedback: event.feedback },
              })
            }),
          ],
          description: 'product §4: the choice is highlighted only after the server has stored it.',
        },
        'chat.feedbackSaved': {
          actions: [
            {
              type: 'storeFeedback',
              params: ({ event }) => ({ messageId: event.messageId, feedback: event.feedback }),
            },
            { type: 'settleRating', params: messageOf },
            stopChild(({ event }) => rateActorId(event.messageId)),
          ],
        },
        'chat.feedbackFailed': {
          actions: [
            { type: 'settleRating', params: messageOf },
            stopChild(({ event }) => rateActorId(event.messageId)),
            logAs('Saving feedback'),
          ],
        },
        'chat.showVersion': {
          guard: and(['isConversationIdle', 'isReplyIdle', 'canShowVersion']),
          actions: [
            { type: 'markSwitching', params: messageOf },
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('showVersion', {
                id: versionActorId(event.messageId),
                input: { messageId: event.messageId, version: event.version },
              })
            }),
          ],
          description:
            'D93: the server stores the version shown (every device, the history and follow-ups ' +
            'read it) and answers it with its own sources; not while an answer is being written.',
        },
        'chat.versionShown': {
          actions: [
            { type: 'storeShownVersion', params: ({ event }) => ({ message: event.message }) },
            { type: 'settleSwitching', params: messageOf },
            stopChild(({ event }) => versionActorId(event.messageId)),
          ],
        },
        'chat.versionFailed': {
          actions: [
            { type: 'settleSwitching', params: messageOf },
            stopChild(({ event }) => versionActorId(event.messageId)),
            logAs('Showing another version of an answer'),
          ],
          description: 'Logged only, as the other chat failures (product §8): the version shown stays.',
        },
      },
      states: {
        idle: {},
        loadingMessages: {
          tags: 'loading',
          invoke: {
            src: 'loadConversation',
            input: ({ context }) => ({ conversationId: context.selectedConversationId ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storeMessages', params: ({ event }) => ({ messages: event.output.messages }) },
                { type: 'storeFiles', params: ({ event }) => ({ files: event.output.files }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: logAs('Loading messages'),
            },
          },
        },
      },
    },
    reply: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'chat.send': [
              {
                guard: and(['isSendable', 'isConversationIdle', 'hasOpenConversation']),
                target: 'sendingMessage',
                actions: { type: 'showOutgoing', params: ({ event }) => ({ content: event.content }) },
              },
              {
                guard: and(['isSendable', 'isConversationIdle']),
                target: 'creatingConversation',
                actions: { type: 'showOutgoing', params: ({ event }) => ({ content: event.content }) },
                description:
                  'product §4 step 2: no conversation is open, so one is created, titled with the message.',
              },
            ],
            'chat.regenerate': {
              guard: and(['isConversationIdle', 'canRegenerate']),
              target: 'regenerating',
              actions: { type: 'startRegenerating', params: messageOf },
            },
          },
          description: 'Sending is blocked while loading (product §5): only this state takes chat.send.',
        },
        creatingConversation: {
          tags: ['loading', 'sending'],
          invoke: {
            src: 'createConversation',
            input: ({ context }) => ({
              title: outgoingOf(context).content,
              documentIds: context.draftScope.map((d) => d.id),
            }),
            onDone: [
              {
                guard: 'hasAttachment',
                target: 'uploadingAttachment',
                actions: {
                  type: 'storeCreatedConversation',
                  params: ({ event }) => ({ conversation: event.output }),
                },
                description: 'The file chosen in the new chat goes into the conversation before the message.',
              },
              {
                target: 'sendingMessage',
                actions: {
                  type: 'storeCreatedConversation',
                  params: ({ event }) => ({ conversation: event.output }),
                },
              },
            ],
            onError: {
              target: 'idle',
              actions: [
                'dropOutgoing',
                { type: 'dropRefusedDocument', params: ({ event }) => ({ error: event.error }) },
                logAs('Creating a conversation'),
              ],
              description:
                'product §4 step 5: the temporary message goes away silently. A chosen document that is ' +
                'gone leaves the draft, with a sentence, so the next send can succeed.',
            },
          },
        },
        uploadingAttachment: {
          tags: ['loading', 'sending'],
          entry: announceStarted,
          invoke: {
            src: 'uploadAttachment',
            input: ({ context }) => {
              const { conversationId } = outgoingTarget(context)
              if (!context.attachment) throw new Error('chat: no file to upload')
              return {
                conversationId,
                name: context.attachment.file.name,
                content: context.attachment.content,
              }
            },
          },
          on: {
            'chat.attachmentUploaded': {
              target: 'sendingMessage',
              actions: [
                {
                  type: 'addFile',
                  params: ({ context, event }) => ({
                    conversationId: outgoingTarget(context).conversationId,
                    document: event.document,
                  }),
                },
                'clearAttachment',
              ],
            },
            'chat.attachmentFailed': {
              target: 'idle',
              actions: [
                deleteCreatedConversation,
                'forgetCreatedConversation',
                'dropOutgoing',
                { type: 'storeAttachmentError', params: ({ event }) => ({ error: event.error }) },
                logAs('Uploading an attached file'),
              ],
              description:
                'As a failed first message: the text goes back into the composer, the file stays there ' +
                'with the reason, and the conversation created for them is deleted.',
            },
            'chat.stop': {
              target: 'idle',
              actions: [deleteCreatedConversation, 'forgetCreatedConversation', 'dropOutgoing'],
              description: 'Stopped before any word arrived: as if it had not been sent; the file stays.',
            },
          },
        },
        sendingMessage: {
          tags: ['loading', 'sending', 'streaming'],
          entry: announceStarted,
          invoke: { src: 'sendMessage', input: ({ context }) => outgoingTarget(context) },
          on: {
            'chat.token': { actions: { type: 'appendToken', params: ({ event }) => ({ text: event.text }) } },
            'chat.sources': {
              actions: { type: 'storeStreamSources', params: ({ event }) => ({ sources: event.sources }) },
            },
            'chat.replied': {
              target: 'idle',
              actions: { type: 'storeReply', params: ({ event }) => ({ reply: event.reply }) },
            },
            'chat.answerFailed': {
              target: 'idle',
              actions: [
                deleteCreatedConversation,
                'forgetCreatedConversation',
                'dropOutgoing',
                { type: 'storeNotice', params: ({ event }) => ({ error: event.error }) },
                logAs('Sending a message'),
              ],
              description:
                'product §4 step 5: the temporary message goes away silently; the text goes back into ' +
                'the composer, and a conversation created for it is deleted. Refused for too many ' +
                'answers at once (429), the server says so in a notice (D84).',
            },
            'chat.stop': [
              {
                guard: 'hasAnswerSoFar',
                target: 'findingStopped',
                actions: 'keepStopped',
                description: 'Leaving the state aborts the request; the server keeps the answer so far.',
              },
              {
                target: 'idle',
                actions: [deleteCreatedConversation, 'forgetCreatedConversation', 'dropOutgoing'],
                description: 'Stopped before any word arrived: as if it had not been sent.',
              },
            ],
          },
        },
        findingStopped: {
          tags: 'loading',
          always: { guard: not('hasStoppedSend'), target: 'idle' },
          invoke: {
            src: 'listMessages',
            input: ({ context }) => ({ conversationId: context.stoppedSend?.conversationId ?? '' }),
            onDone: [
              {
                guard: { type: 'isStopStored', params: ({ event }) => ({ messages: event.output }) },
                target: 'idle',
                actions: { type: 'adoptStoredStop', params: ({ event }) => ({ messages: event.output }) },
                description:
                  'The stopped question and answer take their stored ids: rate and regenerate work.',
              },
              { guard: 'canCheckStopAgain', target: 'waitingForStopped', actions: 'countStopCheck' },
              {
                target: 'idle',
                actions: [
                  'forgetStoppedSend',
                  { type: 'logFailure', params: { failure: 'Finding a stopped answer', error: null } },
                ],
              },
            ],
            onError: { target: 'idle', actions: ['forgetStoppedSend', logAs('Finding a stopped answer')] },
          },
          description:
            'A short wait with sending blocked (tag loading), so the next send does not meet the ' +
            'conversation still claimed by the stopped one (409).',
        },
        waitingForStopped: {
          tags: 'loading',
          after: { [STOP_CHECK_DELAY_MS]: 'findingStopped' },
        },
        regenerating: {
          tags: ['loading', 'sending', 'streaming'],
          invoke: {
            src: 'regenerate',
            input: ({ context }) => ({
              conversationId: context.regenerating?.conversationId ?? '',
              messageId: context.regenerating?.messageId ?? '',
            }),
          },
          on: {
            'chat.token': {
              actions: { type: 'appendRegenerated', params: ({ event }) => ({ text: event.text }) },
            },
            'chat.sources': {
              actions: { type: 'storeStreamSources', params: ({ event }) => ({ sources: event.sources }) },
            },
            'chat.replied': {
              target: 'idle',
              actions: { type: 'storeRegenerated', params: ({ event }) => ({ reply: event.reply }) },
            },
            'chat.answerFailed': {
              target: 'idle',
              actions: [
                'restoreRegenerated',
                { type: 'storeNotice', params: ({ event }) => ({ error: event.error }) },
                logAs('Regenerating an answer'),
              ],
            },
            'chat.stop': { target: 'idle', actions: 'stopRegenerated' },
          },
        },
      },
    },
    dislikeReason: {
      initial: 'closed',
      description:
        'D93: after a dislike is stored, the person may say why (a reason, a short note) or skip; ' +
        'the spec’s feedback call and its highlight are unchanged.',
      on: {
        'chat.feedbackSaved': [
          {
            guard: ({ event }) => event.feedback === 'dislike',
            target: '.asking',
            reenter: true,
            actions: { type: 'askReason', params: messageOf },
          },
          {
            guard: { type: 'isReasonFor', params: messageOf },
            target: '.closed',
            actions: 'forgetReason',
            description: 'A like instead: the reason (if any) went with the dislike.',
          },
        ],
        'chat.showVersion': {
          guard: { type: 'isReasonFor', params: messageOf },
          target: '.closed',
          actions: 'forgetReason',
        },
        'chat.regenerate': {
          guard: { type: 'isReasonFor', params: messageOf },
          target: '.closed',
          actions: 'forgetReason',
        },
        'chat.skipReason': { target: '.closed', actions: 'forgetReason' },
        'chat.select': { target: '.closed', actions: 'forgetReason' },
        'chat.new': { target: '.closed', actions: 'forgetReason' },
      },
      states: {
        closed: {},
        asking: { on: { 'chat.explainDislike': { guard: 'canExplain', target: 'sending' } } },
        sending: {
          invoke: {
            src: 'explainDislike',
            input: ({ event }) => {
              if (event.type !== 'chat.explainDislike') throw new Error('chat: no reason to send')
              return { messageId: event.messageId, why: event.why }
            },
            onDone: 'thanked',
            onError: { target: 'failed', actions: logAs('Saving the reason for a dislike') },
          },
        },
        failed: {
          on: { 'chat.explainDislike': { guard: 'canExplain', target: 'sending' } },
          description: 'Said under the form (the person typed it, so it is not dropped silently); try again.',
        },
        thanked: { after: { reasonThanks: { target: 'closed', actions: 'forgetReason' } } },
      },
    },
    search: {
      initial: 'idle',
      on: {
        'chat.search': [
          {
            guard: ({ event }) => event.query.trim() === '',
            target: '.idle',
            actions: { type: 'storeSearchQuery', params: ({ event }) => ({ query: event.query }) },
          },
          {
            target: '.typing',
            reenter: true,
            actions: { type: 'storeSearchQuery', params: ({ event }) => ({ query: event.query }) },
            description:
              'Searched as typed: each keystroke restarts the pause, and a newer search replaces one under way.',
          },
        ],
      },
      states: {
        idle: {},
        typing: { tags: 'searching', after: { searchPause: 'searching' } },
        searching: {
          tags: 'searching',
          invoke: {
            src: 'searchConversations',
            input: ({ context }) => ({ query: context.searchQuery }),
            onDone: {
              target: 'idle',
              actions: { type: 'storeSearchHits', params: ({ event }) => ({ hits: event.output }) },
            },
            onError: { target: 'idle', actions: logAs('Searching conversations') },
          },
        },
      },
    },
  },
})

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>

export function provideChatMachine(deps: ChatDeps) {
  return chatMachine.provide({ actors: chatActors(deps), actions: chatActions(deps) })
}
