import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { UsageReport } from '#contracts/usage.ts'
import { provideUsageMachine, USAGE_CHART_DAYS, USAGE_ERRORS } from './usage-machine.ts'

const none = { tokens: 0, answers: 0 }
const report = (tokens: number): UsageReport => ({
  days: [{ day: '2026-01-02', sources: { app: { tokens, answers: 1 }, api: none, published: none } }],
  month: {
    month: '2026-01',
    sources: { app: { tokens, answers: 1 }, api: none, published: none },
    keys: [],
    assistants: [],
  },
  tokensPerDay: 1_000_000,
})

test('asks for the last 30 days and shows them', async () => {
  const usage = vi.fn().mockResolvedValue(report(120))
  const actor = createActor(provideUsageMachine({ usage })).start()
  const ready = await waitFor(actor, (s) => s.matches('ready'))
  expect(usage).toHaveBeenCalledWith(USAGE_CHART_DAYS)
  expect(ready.context.report?.days[0]?.sources.app.tokens).toBe(120)
})

test('a failed load says so, and trying again shows the figures', async () => {
  const usage = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(report(7))
  const actor = createActor(provideUsageMachine({ usage })).start()
  const failed = await waitFor(actor, (s) => s.matches('failed'))
  expect(failed.context.error).toBe(USAGE_ERRORS.load)
  actor.send({ type: 'usage.retry' })
  const ready = await waitFor(actor, (s) => s.matches('ready'))
  expect(ready.context.error).toBeNull()
  expect(ready.context.report?.month.sources.app.tokens).toBe(7)
})

test('refreshing keeps the shown figures until the new ones arrive', async () => {
  let answer: (r: UsageReport) => void = () => {}
  const usage = vi
    .fn()
    .mockResolvedValueOnce(report(1))
    .mockImplementationOnce(() => new Promise<UsageReport>((resolve) => (answer = resolve)))
  const actor = createActor(provideUsageMachine({ usage })).start()
  await waitFor(actor, (s) => s.matches('ready'))
  actor.send({ type: 'usage.refresh' })
  expect(actor.getSnapshot().hasTag('loading')).toBe(true)
  expect(actor.getSnapshot().context.report?.days[0]?.sources.app.tokens).toBe(1)
  answer(report(2))
  const ready = await waitFor(actor, (s) => s.matches('ready'))
  expect(ready.context.report?.days[0]?.sources.app.tokens).toBe(2)
})
