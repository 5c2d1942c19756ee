/**
 * Settings → Usage (issue 38, D126): loading → ready with the last USAGE_CHART_DAYS days and this
 * month's totals; a failed load says so and can be tried again ('usage.retry'), and a shown
 * report can be read again ('usage.refresh'). The call is injected with provideUsageMachine(deps).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { UsageReport } from '#contracts/usage.ts'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

/** The days the chart shows, today last. */
export const USAGE_CHART_DAYS = 30

export const USAGE_ERRORS = { load: 'Could not load your usage.' } as const

export type UsageContext = { report: UsageReport | null; error: string | null }
export type UsageEvent = { type: 'usage.retry' } | { type: 'usage.refresh' }
export type UsageDeps = { usage: (days: number) => Promise<UsageReport> }

export const usageMachine = setup({
  types: { context: {} as UsageContext, events: {} as UsageEvent },
  actors: { loadUsage: notProvided<UsageReport, number>('loadUsage') },
  actions: {
    storeReport: assign((_, params: { report: UsageReport }) => ({ report: params.report, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({
      error: serverSentence(params.error, USAGE_ERRORS.load),
    })),
  },
}).createMachine({
  id: 'usage',
  context: { report: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadUsage',
        input: USAGE_CHART_DAYS,
        onDone: {
          target: 'ready',
          actions: { type: 'storeReport', params: ({ event }) => ({ report: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: { on: { 'usage.retry': 'loading' } },
    ready: {
      on: {
        'usage.refresh': {
          target: 'loading',
          description: 'The figures shown stay while the new ones are read.',
        },
      },
    },
  },
})

export function provideUsageMachine(deps: UsageDeps) {
  return usageMachine.provide({
    actors: { loadUsage: fromPromise(({ input }) => deps.usage(input)) },
  })
}
