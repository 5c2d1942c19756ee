/**
 * Why a disliked answer did not help (D93): once a dislike is stored the person may give a reason,
 * a short note, or skip; it is sent once, said again when it fails, and thanked for a moment. A
 * child of the open conversation, which hands it the stored feedback and what closes the question
 * (another version, Regenerate, another chat). The call is injected with provideDislikeReasonMachine(deps).
 */
import { assign, type SnapshotFrom, setup } from 'xstate'
import { type DislikeReasonRequest, DislikeReasonRequestSchema, type Message } from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { chatActions, type DislikeReasonDeps, dislikeReasonActors } from './chat-effects.ts'
import type { ChatEvent, DislikeReasonContext } from './chat-types.ts'

/** How long the thanks for a dislike's reason stays under the answer. */
export const REASON_THANKS_MS = 4000

const messageOf = ({ event }: { event: { messageId: string } }) => ({ messageId: event.messageId })

const reasonSetup = setup({
  delays: { reasonThanks: REASON_THANKS_MS },
  types: { context: {} as DislikeReasonContext, events: {} as ChatEvent },
  actors: {
    explainDislike: notProvided<Message, { messageId: string; why: DislikeReasonRequest }>('explainDislike'),
  },
  actions: {
    forgetReason: assign({ reasonFor: null }),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    isReasonFor: ({ context }, params: { messageId: string }) => context.reasonFor === params.messageId,
    /** A reason or a note the server takes (the contract's rules), for the answer asked about. */
    canExplain: ({ context, event }) =>
      event.type === 'chat.explainDislike' &&
      event.messageId === context.reasonFor &&
      DislikeReasonRequestSchema.safeParse(event.why).success,
  },
})

/** The answer asked about changes under the form (another version, written again): the question goes. */
const closeIfAbout = {
  guard: { type: 'isReasonFor', params: messageOf },
  target: '.closed',
  actions: 'forgetReason',
} as const

export const dislikeReasonMachine = reasonSetup.createMachine({
  id: 'dislikeReason',
  initial: 'closed',
  context: { reasonFor: null },
  description:
    'D93: after a dislike is stored, the person may say why (a reason, a short note) or skip; ' +
    'the spec’s feedback call and its highlight are unchanged.',
  on: {
    'chat.feedbackSaved': [
      {
        guard: ({ event }) => event.feedback === 'dislike',
        target: '.asking',
        actions: assign(({ event }) => ({ reasonFor: event.messageId })),
      },
      { ...closeIfAbout, description: 'A like instead: the reason (if any) went with the dislike.' },
    ],
    'chat.showVersion': closeIfAbout,
    'chat.regenerate': closeIfAbout,
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
        onError: {
          target: 'failed',
          actions: {
            type: 'logFailure',
            params: ({ event }) => ({ failure: 'Saving the reason for a dislike', error: event.error }),
          },
        },
      },
    },
    failed: {
      on: { 'chat.explainDislike': { guard: 'canExplain', target: 'sending' } },
      description: 'Said under the form (the person typed it, so it is not dropped silently); try again.',
    },
    thanked: { after: { reasonThanks: { target: 'closed', actions: 'forgetReason' } } },
  },
})

export type DislikeReasonSnapshot = SnapshotFrom<typeof dislikeReasonMachine>

export function provideDislikeReasonMachine(deps: DislikeReasonDeps) {
  return dislikeReasonMachine.provide({ actors: dislikeReasonActors(deps), actions: chatActions(deps) })
}
