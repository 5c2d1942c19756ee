/**
 * The chat actors' effects: the actors that run their calls and the logger action, built from the
 * deps the app (or a test, or another chat surface) injects; each actor's provide…Machine(deps)
 * fills its slots with its group. Deletions, renames and feedback may overlap (delete two
 * conversations in a row, rate two answers), so those run as spawned callback actors that send
 * their actor a fact when their request settles; a streamed answer sends its tokens the same way.
 */
import { type EventObject, fromCallback, fromPromise } from 'xstate'
import type {
  Conversation,
  DislikeReasonRequest,
  Feedback,
  Message,
  SearchHit,
  SendMessageResponse,
} from '#contracts/chat.ts'
import type { LibraryDocument } from '#contracts/documents.ts'
import type { AnswerStream, ChatDeps, ChatEvent } from './chat-types.ts'

/** What each actor talks to: a second chat surface provides only the sender's and the conversation's. */
export type ConversationListDeps = Pick<
  ChatDeps,
  'listConversations' | 'deleteConversation' | 'renameConversation' | 'searchConversations' | 'log'
>
/** The open conversation's own, and its children's: the scope's and the dislike's reason's. */
export type OpenConversationDeps = Pick<
  ChatDeps,
  'listMessages' | 'listConversationFiles' | 'setFeedback' | 'showVersion' | 'log'
> &
  ConversationScopeDeps &
  DislikeReasonDeps
export type ConversationScopeDeps = Pick<ChatDeps, 'setScope' | 'log'>
export type DislikeReasonDeps = Pick<ChatDeps, 'explainDislike' | 'log'>
export type SenderDeps = Pick<
  ChatDeps,
  'createConversation' | 'listMessages' | 'uploadFile' | 'sendMessage' | 'regenerate' | 'log'
>

type Reports<TInput, TOutput, TEvent extends EventObject> = {
  done: (input: TInput, output: TOutput) => TEvent
  failed: (input: TInput, error: unknown) => TEvent
}

/** Runs `request(input)` once and sends back `done` or `failed`; stop it after either arrives. */
function fromReportingRequest<TInput, TOutput, TEvent extends EventObject>(
  request: (input: TInput) => Promise<TOutput>,
  reports: Reports<TInput, TOutput, TEvent>,
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    request(input).then(
      (output) => sendBack(reports.done(input, output)),
      (error: unknown) => sendBack(reports.failed(input, error)),
    )
  })
}

/** The callback-actor twin of notProvided(): fails loudly until provideChatMachine fills it. */
export function reportingNotProvided<TInput>(name: string) {
  return fromCallback<EventObject, TInput>(() => {
    throw new Error(
      `The "${name}" effect was not provided: build the machine with its provide…Machine(deps).`,
    )
  })
}

/**
 * A streamed answer as a callback actor: tokens and the outcome come back as events; stopping the
 * actor (Stop, or leaving the state) aborts the request.
 */
function fromAnswerStream<TInput>(
  start: (input: TInput, stream: AnswerStream) => Promise<SendMessageResponse>,
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    const stop = new AbortController()
    start(input, {
      onToken: (text) => sendBack({ type: 'chat.token', text }),
      onSources: (sources) => sendBack({ type: 'chat.sources', sources }),
      signal: stop.signal,
    }).then(
      (reply) => sendBack({ type: 'chat.replied', reply }),
      (error: unknown) => {
        if (!stop.signal.aborted) sendBack({ type: 'chat.answerFailed', error })
      },
    )
    return () => stop.abort()
  })
}

/** The conversation list's effect slots, calling `deps`. */
export function conversationListActors(deps: ConversationListDeps) {
  return {
    listConversations: fromPromise<Conversation[], void>(() => deps.listConversations()),
    deleteConversation: fromReportingRequest(
      ({ conversationId }: { conversationId: string }) => deps.deleteConversation(conversationId),
      {
        done: ({ conversationId }): ChatEvent => ({ type: 'chat.conversationDeleted', conversationId }),
        failed: ({ conversationId }, error): ChatEvent => ({
          type: 'chat.deleteFailed',
          conversationId,
          error,
        }),
      },
    ),
    searchConversations: fromPromise<SearchHit[], { query: string }>(({ input }) =>
      deps.searchConversations(input.query),
    ),
    renameConversation: fromReportingRequest(
      ({ conversationId, title }: { conversationId: string; title: string }) =>
        deps.renameConversation(conversationId, title),
      {
        done: (_, conversation): ChatEvent => ({ type: 'chat.renamed', conversation }),
        failed: ({ conversationId }, error): ChatEvent => ({
          type: 'chat.renameFailed',
          conversationId,
          error,
        }),
      },
    ),
  }
}

/** The open conversation's effect slots, calling `deps`. */
export function openConversationActors(deps: OpenConversationDeps) {
  return {
    /** The messages and the files of a conversation; without its files (logged) rather than not at all. */
    loadConversation: fromPromise<
      { messages: Message[]; files: LibraryDocument[] },
      { conversationId: string }
    >(async ({ input }) => {
      const [messages, files] = await Promise.all([
        deps.listMessages(input.conversationId),
        deps.listConversationFiles(input.conversationId).catch((error: unknown) => {
          deps.log.error('Chat: Loading the files of a conversation failed', error)
          return []
        }),
      ])
      return { messages, files }
    }),
    setFeedback: fromReportingRequest(
      ({ messageId, feedback }: { messageId: string; feedback: Feedback }) =>
        deps.setFeedback(messageId, feedback),
      {
        done: ({ messageId }, saved): ChatEvent => ({
          type: 'chat.feedbackSaved',
          messageId,
          feedback: saved.feedback,
        }),
        failed: ({ messageId }, error): ChatEvent => ({ type: 'chat.feedbackFailed', messageId, error }),
      },
    ),
    showVersion: fromReportingRequest(
      ({ messageId, version }: { messageId: string; version: number }) =>
        deps.showVersion(messageId, version),
      {
        done: ({ messageId }, message): ChatEvent => ({ type: 'chat.versionShown', messageId, message }),
        failed: ({ messageId }, error): ChatEvent => ({ type: 'chat.versionFailed', messageId, error }),
      },
    ),
  }
}

/** The open conversation's scope's effect slot, calling `deps`. */
export function conversationScopeActors(deps: ConversationScopeDeps) {
  return {
    setScope: fromReportingRequest(
      ({ conversationId, documentIds }: { conversationId: string; documentIds: string[] | null }) =>
        deps.setScope(conversationId, documentIds),
      {
        done: (_, conversation): ChatEvent => ({ type: 'chat.scopeSaved', conversation }),
        failed: ({ conversationId }, error): ChatEvent => ({
          type: 'chat.scopeFailed',
          conversationId,
          error,
        }),
      },
    ),
  }
}

/** The dislike's reason's effect slot, calling `deps`. */
export function dislikeReasonActors(deps: DislikeReasonDeps) {
  return {
    explainDislike: fromPromise<Message, { messageId: string; why: DislikeReasonRequest }>(({ input }) =>
      deps.explainDislike(input.messageId, input.why),
    ),
  }
}

/** The sender's effect slots, calling `deps`. */
export function senderActors(deps: SenderDeps) {
  return {
    listMessages: fromPromise<Message[], { conversationId: string }>(({ input }) =>
      deps.listMessages(input.conversationId),
    ),
    uploadAttachment: fromReportingRequest(
      (input: { conversationId: string; name: string; content: Blob }) =>
        deps.uploadFile(input.conversationId, { name: input.name, content: input.content }),
      {
        done: (_, document): ChatEvent => ({ type: 'chat.attachmentUploaded', document }),
        failed: (_, error): ChatEvent => ({ type: 'chat.attachmentFailed', error }),
      },
    ),
    createConversation: fromPromise<
      Conversation,
      { title: string; documentIds: string[]; assistantId: string | null }
    >(({ input }) => {
      if (input.assistantId) return deps.createConversation(input.title, input.documentIds, input.assistantId)
      return input.documentIds.length > 0
        ? deps.createConversation(input.title, input.documentIds)
        : deps.createConversation(input.title)
    }),
    sendMessage: fromAnswerStream(
      ({ conversationId, content }: { conversationId: string; content: string }, stream) =>
        deps.sendMessage(conversationId, content, stream),
    ),
    regenerate: fromAnswerStream(
      ({ conversationId, messageId }: { conversationId: string; messageId: string }, stream) =>
        deps.regenerate(conversationId, messageId, stream),
    ),
  }
}

/** product §8: every chat failure is logged only, through the injected logger. */
export function chatActions(deps: Pick<ChatDeps, 'log'>) {
  return {
    logFailure: (_: unknown, { failure, error }: { failure: string; error: unknown }) => {
      deps.log.error(`Chat: ${failure} failed`, error)
    },
  }
}
