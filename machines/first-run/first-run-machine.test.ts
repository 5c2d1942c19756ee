import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { provideFirstRunMachine } from './first-run-machine.ts'

const withDrive = () => Promise.resolve(true)

test('loads the ready count and the starter questions once', async () => {
  const firstRun = vi.fn().mockResolvedValue({ ready: 4, questions: ['What does a.md say about “Costs”?'] })
  const actor = createActor(provideFirstRunMachine({ firstRun, driveConfigured: withDrive })).start()

  await waitFor(actor, (s) => s.matches('shown'))

  expect(actor.getSnapshot().context.firstRun).toEqual({
    ready: 4,
    questions: ['What does a.md say about “Costs”?'],
    drive: true,
  })
  expect(firstRun).toHaveBeenCalledTimes(1)
})

test('on a server without Google the first run says Drive is not there to offer', async () => {
  const firstRun = vi.fn().mockResolvedValue({ ready: 0, questions: [] })
  const actor = createActor(
    provideFirstRunMachine({ firstRun, driveConfigured: () => Promise.resolve(false) }),
  ).start()

  await waitFor(actor, (s) => s.matches('shown'))

  expect(actor.getSnapshot().context.firstRun).toEqual({ ready: 0, questions: [], drive: false })
})

test('a failed load offers nothing', async () => {
  const actor = createActor(
    provideFirstRunMachine({ firstRun: () => Promise.reject(new Error('down')), driveConfigured: withDrive }),
  ).start()

  await waitFor(actor, (s) => s.matches('unavailable'))

  expect(actor.getSnapshot().context.firstRun).toBeNull()
})
