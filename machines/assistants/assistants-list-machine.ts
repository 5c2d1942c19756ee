/**
 * The Assistants section (issue 36): the person's assistants as cards, loaded when it starts, and
 * "New assistant", which creates one named NEW_ASSISTANT_NAME with the server's defaults and tells
 * the app its id (emitted `assistants.created`: the app opens its page). A failure keeps the list
 * with a sentence. Calls are injected with provideAssistantsListMachine(deps).
 */
import { assign, emit, fromPromise, setup } from 'xstate'
import type { Assistant, AssistantSummary } from '#contracts/assistants.ts'
import { notProvided } from '#machines/shared/effects.ts'
import { ASSISTANT_MESSAGES, sentenceOf } from './assistant-messages.ts'

/** What "New assistant" names the new one; its page is where the person renames it. */
export const NEW_ASSISTANT_NAME = 'New assistant'

export type AssistantsListContext = {
  assistants: AssistantSummary[]
  problem: string | null
}

export type AssistantsListEvent = { type: 'assistants.load' } | { type: 'assistants.create' }

export type AssistantsListEmitted = { type: 'assistants.created'; assistantId: string }

export type AssistantsListDeps = {
  list: () => Promise<AssistantSummary[]>
  create: (fields: { name: string }) => Promise<Assistant>
}

/** A created assistant as its card shows it, before the list is loaded again. */
export function summaryOf(assistant: Assistant): AssistantSummary {
  return {
    _id: assistant._id,
    name: assistant.name,
    description: assistant.description,
    answerPolicy: assistant.answerPolicy,
    updatedAt: assistant.updatedAt,
    documentCount: assistant.knowledge.documentIds.length,
    folderCount: assistant.knowledge.folderIds.length,
  }
}

export const assistantsListMachine = setup({
  types: {
    context: {} as AssistantsListContext,
    events: {} as AssistantsListEvent,
    emitted: {} as AssistantsListEmitted,
  },
  actors: {
    list: notProvided<AssistantSummary[]>('list'),
    create: notProvided<Assistant, { name: string }>('create'),
  },
  actions: {
    storeProblem: assign((_, params: { error: unknown; fallback: string }) => ({
      problem: sentenceOf(params.error, params.fallback),
    })),
  },
}).createMachine({
  id: 'assistantsList',
  context: { assistants: [], problem: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'list',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ assistants: event.output, problem: null })),
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ error: event.error, fallback: ASSISTANT_MESSAGES.load }),
          },
        },
      },
    },
    ready: {
      on: {
        'assistants.load': 'loading',
        'assistants.create': 'creating',
      },
    },
    creating: {
      tags: 'creating',
      invoke: {
        src: 'create',
        input: { name: NEW_ASSISTANT_NAME },
        onDone: {
          target: 'ready',
          actions: [
            assign(({ context, event }) => ({
              assistants: [summaryOf(event.output), ...context.assistants],
              problem: null,
            })),
            emit(({ event }) => ({ type: 'assistants.created' as const, assistantId: event.output._id })),
          ],
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ error: event.error, fallback: ASSISTANT_MESSAGES.create }),
          },
        },
      },
    },
  },
})

export function provideAssistantsListMachine(deps: AssistantsListDeps) {
  return assistantsListMachine.provide({
    actors: {
      list: fromPromise(() => deps.list()),
      create: fromPromise(({ input }) => deps.create(input)),
    },
  })
}
