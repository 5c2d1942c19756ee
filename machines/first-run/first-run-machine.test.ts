import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { provideFirstRunMachine } from './first-run-machine.ts'

test('loads the ready count and the starter questions once', async () => {
  const firstRun = vi.fn().mockResolvedValue({ ready: 4, questions: ['What does a.md say about “Costs”?'] })
  const actor = createActor(provideFirstRunMachine({ firstRun })).start()

  await waitFor(actor, (s) => s.matches('shown'))

  expect(actor.getSnapshot().context.firstRun).toEqual({
    ready: 4,
    questions: ['What does a.md say about “Costs”?'],
  })
  expect(firstRun).toHaveBeenCalledTimes(1)
})

test('a failed load offers nothing', async () => {
  const actor = createActor(
    provideFirstRunMachine({ firstRun: () => Promise.reject(new Error('down')) }),
  ).start()

  await waitFor(actor, (s) => s.matches('unavailable'))

  expect(actor.getSnapshot().context.firstRun).toBeNull()
})
