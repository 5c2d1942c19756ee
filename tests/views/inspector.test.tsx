/**
 * The XState inspector (D49): with an inspector injected the way main.tsx injects the
 * browser one, every machine of the app reaches it, under its own id, with readable state values
 * and event types. The inspector is @statelyai/inspect's own, on a recording adapter instead of
 * the browser window.
 */
import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { chatBackend } from './chat-fixtures.ts'
import { listFiles } from './drive-handlers.ts'
import { ada, ok, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const PASSWORD = 'correct horse'

function recordingInspector() {
  const events: StatelyInspectionEvent[] = []
  const inspector = createInspector({ send: (event) => events.push(event) })
  const machineIds = () =>
    events.flatMap((event) => {
      if (event.type !== '@xstate.actor' || !event.definition) return []
      return [(JSON.parse(event.definition) as { id: string }).id]
    })
  const eventTypes = () =>
    events.flatMap((event) => (event.type === '@xstate.event' ? [event.event.type as string] : []))
  const stateValues = () =>
    events.flatMap((event) =>
      event.type === '@xstate.snapshot' ? [(event.snapshot as { value?: unknown }).value] : [],
    )
  return { inspect: inspector.inspect, machineIds, eventTypes, stateValues }
}

test('every machine reaches the inspector with readable state and event names', async () => {
  const recorder = recordingInspector()
  const backend = chatBackend()
  server.use(
    ok(authEndpoints.register, { success: true, data: { user: ada } }, 201),
    ok(authEndpoints.login, { success: true, data: { user: ada } }),
    signedIn(),
    listFiles([]).handler,
    ...backend.handlers,
  )
  const { user } = renderApp('/register', { inspect: recorder.inspect })

  await user.type(await screen.findByLabelText('Email'), ada.email)
  await user.type(screen.getByLabelText('Password'), PASSWORD)
  await user.type(screen.getByLabelText('Confirm Password'), PASSWORD)
  await user.click(screen.getByRole('button', { name: 'Create Account' }))
  await user.type(await screen.findByLabelText('Password'), PASSWORD)
  await user.click(screen.getByRole('button', { name: 'Sign In' }))
  await screen.findByText(ada.email)
  await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Attach file' }))
  await screen.findByRole('dialog', { name: 'Upload File' })

  const machines = [
    'auth',
    'session',
    'register',
    'login',
    'dashboard',
    'chat',
    'documentPicker',
    'drive',
    'upload',
  ]
  await waitFor(() => expect(recorder.machineIds()).toEqual(expect.arrayContaining(machines)))
  const types = recorder.eventTypes()
  for (const type of ['register.submit', 'login.submit', 'auth.register', 'auth.login', 'auth.check']) {
    expect(types).toContain(type)
  }
  const values = recorder.stateValues()
  for (const value of ['submitting', 'registered', 'signedIn', 'checking']) {
    expect(values).toContainEqual(value)
  }
})
