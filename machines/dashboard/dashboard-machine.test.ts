import { expect, test } from 'vitest'
import { createActor } from 'xstate'
import { DASHBOARD_SECTIONS, dashboardMachine } from './dashboard-machine.ts'

test('opens on the chat section', () => {
  const dashboard = createActor(dashboardMachine).start()

  expect(dashboard.getSnapshot().value).toBe('chat')
})

test('selecting a section puts exactly that section on screen', () => {
  const dashboard = createActor(dashboardMachine).start()

  for (const section of DASHBOARD_SECTIONS) {
    dashboard.send({ type: 'dashboard.select', section })
    expect(dashboard.getSnapshot().value).toBe(section)
  }
})

test('starts in the section its address names, and moves on from there', () => {
  const snapshot = dashboardMachine.resolveState({ value: 'history' })
  const dashboard = createActor(dashboardMachine, { snapshot }).start()

  expect(dashboard.getSnapshot().value).toBe('history')
  dashboard.send({ type: 'dashboard.select', section: 'docs' })
  expect(dashboard.getSnapshot().value).toBe('docs')
})
