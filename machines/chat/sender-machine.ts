/**
 * The sender (product §4 send steps 1–5, §5): the message on its way, shown at once under a
 * temporary id; a conversation created for it when none is open (and the file attached in a new
 * chat uploaded into it first); the answer streamed in, stopped, or written again. It keeps the
 * composer's text and notice; what the screen and the list show of an exchange it tells its
 * surface as facts (ExchangeFact; its setup and those named actions are in sender-actions.ts). Calls
 * and the clock are injected (provideSenderMachine(deps), input).
 */
import { and, assign, enqueueActions, not, type SnapshotFrom, sendParent } from 'xstate'
import { chatActions, type SenderDeps, senderActors } from './chat-effects.ts'
import {
  announceCreated,
  announceStopFound,
  appendToken,
  dropUnanswered,
  endRegenerating,
  growRegenerated,
  keepStopped,
  logAs,
  STOP_CHECK_DELAY_MS,
  senderSetup,
  showOutgoing,
  startRegenerating,
  storeFileUploaded,
  storeRegenerated,
  storeReply,
  storeSources,
} from './sender-actions.ts'
import { outgoingOf, outgoingTarget } from './sender-model.ts'

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
          actions: startRegenerating,
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
          assistantId: outgoingOf(context).assistantId ?? null,
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
            actions: [
              enqueueActions(({ context, event, enqueue }) => {
                const found = announceStopFound(context, event.output)
                if (found) enqueue.sendParent(found)
              }),
              'forgetStoppedSend',
            ],
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
          actions: growRegenerated,
        },
        'chat.sources': { actions: storeSources },
        'chat.replied': {
          target: 'idle',
          actions: storeRegenerated,
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
