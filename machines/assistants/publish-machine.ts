/**
 * The Publish panel of an assistant's page (issue 37): saves the publishing settings with the
 * assistant's PATCH, and makes or rotates the identity secret (a rotation is asked first: the old
 * one stops working). The secret is kept only while its dialog is open: it is shown once. The
 * editor machine starts this one and is told of what changed (`editor.replaced`,
 * `editor.secretMade`), so the page reads one assistant. Calls are injected through
 * provideAssistantEditorMachine.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate'
import type { Assistant } from '#contracts/assistants.ts'
import type { PublishingRequest } from '#contracts/publishing.ts'
import { notProvided } from '#machines/shared/effects.ts'
import { sentenceOf } from './assistant-messages.ts'

export const PUBLISH_MESSAGES = {
  saved: 'Publishing saved.',
  save: 'Could not save the publishing settings. Try again.',
  secret: 'Could not make a secret. Try again.',
} as const

export type PublishContext = {
  assistantId: string
  hasSecret: boolean
  /** The secret just made: in context only while its dialog is open. */
  secret: string | null
  problem: string | null
  notice: string | null
}

export type PublishEvent =
  | { type: 'publish.save'; fields: PublishingRequest }
  | { type: 'publish.makeSecret' }
  | { type: 'publish.confirmRotate' }
  | { type: 'publish.cancelRotate' }
  | { type: 'publish.closeSecret' }

export type PublishDeps = {
  update: (id: string, fields: PublishingRequest) => Promise<Assistant>
  rotateIdentitySecret: (id: string) => Promise<string>
}

export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as PublishEvent,
    input: {} as { assistantId: string; hasSecret: boolean },
  },
  actors: {
    update: notProvided<Assistant, { id: string; fields: PublishingRequest }>('update'),
    rotate: notProvided<string, { id: string }>('rotateIdentitySecret'),
  },
  actions: {
    storeProblem: assign((_, params: { error: unknown; fallback: string }) => ({
      problem: sentenceOf(params.error, params.fallback),
    })),
    clearProblem: assign({ problem: null, notice: null }),
  },
  guards: { hasSecret: ({ context }) => context.hasSecret },
}).createMachine({
  id: 'publish',
  context: ({ input }) => ({ ...input, secret: null, problem: null, notice: null }),
  initial: 'ready',
  states: {
    ready: {
      on: {
        'publish.save': 'saving',
        'publish.makeSecret': [
          {
            guard: 'hasSecret',
            target: 'confirmingRotate',
            actions: 'clearProblem',
            description: 'A rotation is asked first: tokens signed with the old secret stop working.',
          },
          { target: 'making' },
        ],
      },
    },
    saving: {
      tags: 'busy',
      entry: 'clearProblem',
      invoke: {
        src: 'update',
        input: ({ context, event }) => ({
          id: context.assistantId,
          fields: (event as Extract<PublishEvent, { type: 'publish.save' }>).fields,
        }),
        onDone: {
          target: 'ready',
          actions: [
            assign({ notice: PUBLISH_MESSAGES.saved }),
            sendParent(({ event }) => ({ type: 'editor.replaced', assistant: event.output })),
          ],
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ error: event.error, fallback: PUBLISH_MESSAGES.save }),
          },
        },
      },
    },
    confirmingRotate: {
      on: { 'publish.confirmRotate': 'making', 'publish.cancelRotate': 'ready' },
    },
    making: {
      tags: ['busy', 'secret'],
      entry: 'clearProblem',
      invoke: {
        src: 'rotate',
        input: ({ context }) => ({ id: context.assistantId }),
        onDone: {
          target: 'showingSecret',
          actions: [
            assign({ secret: ({ event }) => event.output, hasSecret: true }),
            sendParent({ type: 'editor.secretMade' }),
          ],
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ error: event.error, fallback: PUBLISH_MESSAGES.secret }),
          },
        },
      },
    },
    showingSecret: {
      tags: 'secret',
      on: { 'publish.closeSecret': { target: 'ready', actions: assign({ secret: null }) } },
      description: 'Shown once: closing the dialog forgets it; only a rotation makes another.',
    },
  },
})

export function providePublishMachine(deps: PublishDeps) {
  return publishMachine.provide({
    actors: {
      update: fromPromise(({ input }) => deps.update(input.id, input.fields)),
      rotate: fromPromise(({ input }) => deps.rotateIdentitySecret(input.id)),
    },
  })
}
