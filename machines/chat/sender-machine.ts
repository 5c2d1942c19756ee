/**
 * The sender (product §4 send steps 1–5, §5): the message on its way, shown at once under a
 * temporary id; a conversation created for it when none is open (and the file attached in a new
 * chat uploaded into it first); the answer streamed in, stopped, or written again. It keeps the
 * composer's text and notice; what the screen and the list show of an exchange it tells its
 * surface as facts (ExchangeFact). Calls and the clock are injected (provideSenderMachine(deps), input).
 */
import { and, assign, enqueueActions, not, type SnapshotFrom, sendParent, setup } from 'xstate'
import type { Conversation, Message } from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { failureOf } from '#machines/upload/upload-machine.ts'
import type { FileFacts } from '#machines/upload/upload-rules.ts'
import { chatActions, reportingNotProvided, type SenderDeps, senderActors } from './chat-effects.ts'
import { answerIdOf, noticeOf } from './chat-model.ts'
import type { ChatEvent, ChatInput, SenderCommand, SenderContext } from './chat-types.ts'
import {
  createdConversationOf,
  isSendableText,
  outgoingOf,
  outgoingTarget,
  startSending,
  stoppedSendOf,
  storedStop,
} from './sender-model.ts'

/**
 * After a Stop the server stores the answer so far when it sees the connection close, a moment
 * after the browser closed it: the conversation's messages are fetched until it is there, this
 * long apart, at most MAX_STOP_CHECKS times (then the bubbles keep their temporary ids, as before).
 */
export const STOP_CHECK_DELAY_MS = 150
export const MAX_STOP_CHECKS = 10

const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

const senderSetup = setup({
  types: {
    context: {} as SenderContext,
    events: {} as ChatEvent | SenderCommand,
    input: {} as ChatInput,
    tags: {} as 'loading' | 'sending' | 'streaming',
  },
  actors: {
    createConversation: notProvided<Conversation, { title: string; documentIds: string[] }>(
      'createConversation',
    ),
    uploadAttachment: reportingNotProvided<{ conversationId: string; name: string; content: Blob }>(
      'uploadAttachment',
    ),
    sendMessage: reportingNotProvided<{ conversationId: string; content: string }>('sendMessage'),
    regenerate: reportingNotProvided<{ conversationId: string; messageId: string }>('regenerate'),
    listMessages: notProvided<Message[], { conversationId: string }>('listMessages'),
  },
  actions: {
    storeCreated: assign(({ context }, params: { conversation: Conversation }) => ({
      outgoing: {
        ...outgoingOf(context),
        conversationId: params.conversation._id,
        createdConversation: true,
      },
    })),
    countStopCheck: assign(({ context }) => ({
      stoppedSend: context.stoppedSend && { ...context.stoppedSend, checks: context.stoppedSend.checks + 1 },
    })),
    forgetStoppedSend: assign({ stoppedSend: null }),
    storeNotice: assign((_, params: { error: unknown }) => ({ notice: noticeOf(params.error) })),
    clearAttachment: assign({ attachment: null }),
    storeAttachment: assign((_, params: { file: FileFacts; content: Blob }) => ({
      attachment: { file: params.file, content: params.content, error: null },
    })),
    storeAttachmentError: assign(({ context }, params: { error: unknown }) => ({
      attachment: context.attachment && { ...context.attachment, error: failureOf(params.error) },
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    isSendable: ({ event }) => event.type === 'sender.send' && isSendableText(event.content),
    hasConversation: ({ event }) => event.type === 'sender.send' && event.conversationId !== null,
    hasAnswerSoFar: ({ context }) => (context.outgoing?.answer.trim() ?? '') !== '',
    hasStoppedSend: ({ context }) => context.stoppedSend !== null,
    isStopStored: ({ context }, params: { messages: Message[] }) =>
      storedStop(context.stoppedSend, params.messages) !== null,
    canCheckStopAgain: ({ context }) => (context.stoppedSend?.checks ?? MAX_STOP_CHECKS) < MAX_STOP_CHECKS,
    hasAttachment: ({ context }) => context.attachment !== null,
  },
})

/** product §4 step 1: shown at once; the composer empties. */
const showOutgoing = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'sender.send') return
  const { change, shown } = startSending(context, event)
  enqueue.assign(change)
  enqueue.sendParent({ type: 'exchange.shown', message: shown })
})

/** Step 2 done: the surface hears of the conversation created for the message. */
const announceCreated = (conversation: Conversation, tempId: string) =>
  ({ type: 'exchange.created', tempId, conversation }) as const

/** product §4 step 5: the temporary message goes away; what was typed goes back into the composer. */
const dropOutgoing = senderSetup.enqueueActions(({ context, enqueue }) => {
  const { outgoing } = context
  if (!outgoing) return
  enqueue.assign({ outgoing: null, draft: context.draft === '' ? outgoing.content : context.draft })
  enqueue.sendParent({ type: 'exchange.dropped', tempId: outgoing.tempId })
})

/** A conversation created for a message that got no answer is deleted again (product §4 step 5). */
const discardCreated = senderSetup.enqueueActions(({ context, enqueue }) => {
  const conversationId = createdConversationOf(context)
  if (conversationId) enqueue.sendParent({ type: 'exchange.discarded', conversationId })
})
const dropUnanswered = [discardCreated, dropOutgoing]

const appendToken = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.token') return
  const outgoing = outgoingOf(context)
  const answer = outgoing.answer + event.text
  enqueue.assign({ outgoing: { ...outgoing, answer } })
  const at = context.now().toISOString()
  enqueue.sendParent({
    type: 'exchange.grew',
    tempId: outgoing.tempId,
    answer,
    sources: outgoing.sources,
    at,
  })
})

const storeSources = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.sources') return
  const { outgoing, regenerating } = context
  if (outgoing) enqueue.assign({ outgoing: { ...outgoing, sources: event.sources } })
  const answerId = outgoing ? answerIdOf(outgoing.tempId) : regenerating?.messageId
  if (answerId) enqueue.sendParent({ type: 'exchange.sources', answerId, sources: event.sources })
})

/** product §4 step 4: the surface shows the stored question and answer and moves the conversation up. */
const storeReply = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.replied') return
  const { tempId } = outgoingOf(context)
  const { conversationId } = outgoingTarget(context)
  enqueue.assign({ outgoing: null })
  enqueue.sendParent({ type: 'exchange.replied', conversationId, tempId, reply: event.reply })
})

const keepStopped = senderSetup.enqueueActions(({ context, enqueue }) => {
  const outgoing = outgoingOf(context)
  enqueue.assign({ outgoing: null, stoppedSend: stoppedSendOf(outgoing) })
  const { conversationId, tempId, answer } = outgoing
  enqueue.sendParent({
    type: 'exchange.stopped',
    conversationId,
    tempId,
    answer,
    at: context.now().toISOString(),
  })
})

const storeFileUploaded = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.attachmentUploaded') return
  const { conversationId } = outgoingTarget(context)
  enqueue.sendParent({ type: 'exchange.fileUploaded', conversationId, document: event.document })
  enqueue.assign({ attachment: null })
})

/** The regenerate on its way is over: `how` says how the answer ends on screen. */
const endRegenerating = (how: 'exchange.restored' | 'exchange.regenerateStopped') =>
  senderSetup.enqueueActions(({ context, enqueue }) => {
    const { regenerating } = context
    if (!regenerating) return
    enqueue.sendParent({ type: how, previous: regenerating.previous })
    enqueue.assign({ regenerating: null })
  })

export const senderMachine = senderSetup.createMachine({
  id: 'sender',
  initial: 'idle',
  context: ({ input }) => ({
    outgoing: null,
    regenerating: null,
    stoppedSend: null,
    draft: '',
    notice: null,
    sentCount: 0,
    attachment: null,
    now: input?.now ?? (() => new Date()),
  }),
  on: {
    'chat.type': { actions: assign(({ event }) => ({ draft: event.text })) },
    'chat.attach': {
      actions: { type: 'storeAttachment', params: ({ event }) => event },
      description:
        'Only a new chat takes a file in its composer (its surface says so); another one replaces it.',
    },
    'chat.detach': { actions: 'clearAttachment' },
    'chat.select': { actions: 'clearAttachment', description: 'The file belonged to the new chat left.' },
  },
  states: {
    idle: {
      on: {
        'sender.send': [
          { guard: and(['isSendable', 'hasConversation']), target: 'sendingMessage', actions: showOutgoing },
          {
            guard: 'isSendable',
            target: 'creatingConversation',
            actions: showOutgoing,
            description:
              'product §4 step 2: no conversation is open, so one is created, titled with the message.',
          },
        ],
        'sender.regenerate': {
          target: 'regenerating',
          actions: enqueueActions(({ event, enqueue }) => {
            const { conversationId, previous } = event
            enqueue.assign({
              regenerating: { conversationId, messageId: previous.id, previous },
              notice: null,
            })
            enqueue.sendParent({ type: 'exchange.regenerating', messageId: previous.id })
          }),
        },
      },
      description: 'Only this state takes a message: one exchange at a time (product §5).',
    },
    creatingConversation: {
      tags: ['loading', 'sending'],
      invoke: {
        src: 'createConversation',
        input: ({ context }) => ({
          title: outgoingOf(context).content,
          documentIds: outgoingOf(context).documentIds,
        }),
        onDone: [
          {
            guard: 'hasAttachment',
            target: 'uploadingAttachment',
            actions: [
              { type: 'storeCreated', params: ({ event }) => ({ conversation: event.output }) },
              sendParent(({ context, event }) => announceCreated(event.output, outgoingOf(context).tempId)),
            ],
            description: 'The file chosen in the new chat goes into the conversation before the message.',
          },
          {
            target: 'sendingMessage',
            actions: [
              { type: 'storeCreated', params: ({ event }) => ({ conversation: event.output }) },
              sendParent(({ context, event }) => announceCreated(event.output, outgoingOf(context).tempId)),
            ],
          },
        ],
        onError: {
          target: 'idle',
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const { outgoing } = context
              if (outgoing) {
                enqueue.assign({
                  outgoing: null,
                  draft: context.draft === '' ? outgoing.content : context.draft,
                })
                enqueue.sendParent({ type: 'exchange.dropped', tempId: outgoing.tempId })
              }
              enqueue.sendParent({ type: 'exchange.refused', error: event.error })
            }),
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
      invoke: {
        src: 'uploadAttachment',
        input: ({ context }) => {
          const { conversationId } = outgoingTarget(context)
          if (!context.attachment) throw new Error('chat: no file to upload')
          return { conversationId, name: context.attachment.file.name, content: context.attachment.content }
        },
      },
      on: {
        'chat.attachmentUploaded': {
          target: 'sendingMessage',
          actions: storeFileUploaded,
        },
        'chat.attachmentFailed': {
          target: 'idle',
          actions: [
            ...dropUnanswered,
            { type: 'storeAttachmentError', params: ({ event }) => ({ error: event.error }) },
            logAs('Uploading an attached file'),
          ],
          description:
            'As a failed first message: the text goes back into the composer, the file stays there ' +
            'with the reason, and the conversation created for them is deleted.',
        },
        'chat.stop': {
          target: 'idle',
          actions: dropUnanswered,
          description: 'Stopped before any word arrived: as if it had not been sent; the file stays.',
        },
      },
    },
    sendingMessage: {
      tags: ['loading', 'sending', 'streaming'],
      invoke: { src: 'sendMessage', input: ({ context }) => outgoingTarget(context) },
      on: {
        'chat.token': { actions: appendToken },
        'chat.sources': { actions: storeSources },
        'chat.replied': { target: 'idle', actions: storeReply },
        'chat.answerFailed': {
          target: 'idle',
          actions: [
            ...dropUnanswered,
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
            actions: keepStopped,
            description: 'Leaving the state aborts the request; the server keeps the answer so far.',
          },
          {
            target: 'idle',
            actions: dropUnanswered,
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
            actions: enqueueActions(({ context, event, enqueue }) => {
              const stored = storedStop(context.stoppedSend, event.output)
              if (context.stoppedSend && stored)
                enqueue.sendParent({
                  type: 'exchange.stopStored',
                  tempId: context.stoppedSend.tempId,
                  stored,
                })
              enqueue.assign({ stoppedSend: null })
            }),
            description: 'The stopped question and answer take their stored ids: rate and regenerate work.',
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
    waitingForStopped: { tags: 'loading', after: { [STOP_CHECK_DELAY_MS]: 'findingStopped' } },
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
          actions: sendParent(({ context, event }) => ({
            type: 'exchange.regeneratedGrew',
            messageId: context.regenerating?.messageId ?? '',
            text: event.text,
          })),
        },
        'chat.sources': { actions: storeSources },
        'chat.replied': {
          target: 'idle',
          actions: [
            sendParent(({ context, event }) => ({
              type: 'exchange.regenerated',
              conversationId: context.regenerating?.conversationId ?? '',
              messageId: context.regenerating?.messageId ?? '',
              reply: event.reply,
            })),
            assign({ regenerating: null }),
          ],
        },
        'chat.answerFailed': {
          target: 'idle',
          actions: [
            endRegenerating('exchange.restored'),
            { type: 'storeNotice', params: ({ event }) => ({ error: event.error }) },
            logAs('Regenerating an answer'),
          ],
        },
        'chat.stop': { target: 'idle', actions: endRegenerating('exchange.regenerateStopped') },
      },
    },
  },
})

export type SenderSnapshot = SnapshotFrom<typeof senderMachine>

export function provideSenderMachine(deps: SenderDeps) {
  return senderMachine.provide({ actors: senderActors(deps), actions: chatActions(deps) })
}
