import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { assistant } from './assistant-fixtures.ts'
import {
  type AssistantsListDeps,
  type AssistantsListEmitted,
  NEW_ASSISTANT_NAME,
  provideAssistantsListMachine,
  summaryOf,
} from './assistants-list-machine.ts'

function start(overrides: Partial<AssistantsListDeps> = {}) {
  const deps: AssistantsListDeps = {
    list: vi.fn<AssistantsListDeps['list']>().mockResolvedValue([summaryOf(assistant())]),
    create: vi.fn<AssistantsListDeps['create']>(async ({ name }) => assistant({ _id: 'new-1', name })),
    ...overrides,
  }
  const actor = createActor(provideAssistantsListMachine(deps)).start()
  const heard: AssistantsListEmitted[] = []
  actor.on('*', (event) => heard.push(event))
  return { actor, deps, heard }
}

test('loads the assistants when it starts', async () => {
  const { actor } = start()

  const ready = await waitFor(actor, (s) => s.matches('ready'))

  expect(ready.context.assistants.map((a) => [a.name, a.folderCount])).toEqual([['HR policies', 1]])
})

test('"New assistant" creates one named "New assistant", lists it first and tells the app its id', async () => {
  const { actor, deps, heard } = start()
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'assistants.create' })
  const ready = await waitFor(actor, (s) => s.matches('ready'))

  expect(deps.create).toHaveBeenCalledWith({ name: NEW_ASSISTANT_NAME })
  expect(ready.context.assistants.map((a) => a._id)).toEqual(['new-1', assistant()._id])
  expect(heard).toEqual([{ type: 'assistants.created', assistantId: 'new-1' }])
})

test("a refused creation shows the server's sentence and opens nothing", async () => {
  const refused = Object.assign(new Error('You can have at most 100 assistants.'), { status: 400 })
  const { actor, heard } = start({ create: vi.fn().mockRejectedValue(refused) })
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'assistants.create' })
  const ready = await waitFor(actor, (s) => s.matches('ready') && s.context.problem !== null)

  expect(ready.context.problem).toBe('You can have at most 100 assistants.')
  expect(heard).toEqual([])
})

test('a failed load says so in our words', async () => {
  const { actor } = start({ list: vi.fn().mockRejectedValue(new Error('socket hang up')) })

  const ready = await waitFor(actor, (s) => s.matches('ready'))

  expect(ready.context.problem).toBe('Could not load your assistants. Try again.')
})
