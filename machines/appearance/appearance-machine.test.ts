import { expect, test } from 'vitest'
import { createActor } from 'xstate'
import { provideAppearanceMachine, type Theme } from './appearance-machine.ts'

function start(theme: Theme) {
  const saved: Theme[] = []
  const actor = createActor(provideAppearanceMachine({ saveTheme: (t) => saved.push(t) }), {
    input: { theme },
  }).start()
  return { actor, saved }
}

test('starts on the stored choice and saves nothing', () => {
  const { actor, saved } = start('dark')
  expect(actor.getSnapshot().context.theme).toBe('dark')
  expect(saved).toEqual([])
})

test('choosing another theme shows it and hands it to be saved', () => {
  const { actor, saved } = start('system')
  actor.send({ type: 'appearance.choose', theme: 'dark' })
  actor.send({ type: 'appearance.choose', theme: 'system' })
  expect(actor.getSnapshot().context.theme).toBe('system')
  expect(saved).toEqual(['dark', 'system'])
})

test('choosing the theme already chosen saves nothing again', () => {
  const { actor, saved } = start('light')
  actor.send({ type: 'appearance.choose', theme: 'light' })
  expect(saved).toEqual([])
})
