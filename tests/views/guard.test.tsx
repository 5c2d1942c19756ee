import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { MAX_REFRESH_ATTEMPTS } from '#machines/session/session-machine.ts'
import { UNREACHABLE_TEXT } from '#src/features/auth/session-guard.tsx'
import {
  ada,
  counted,
  errorResponse,
  fail,
  held,
  ok,
  okResponse,
  server,
  signedIn,
  signedOut,
} from './msw-server.ts'
import { renderApp } from './render-app.tsx'

test('shows "Loading..." while the session is checked, then the dashboard', async () => {
  const me = held(authEndpoints.me, { success: true, data: ada })
  server.use(me.handler)
  renderApp('/dashboard')

  expect(await screen.findByText('Loading...')).toBeTruthy()
  // The waiting screen is a page of its own: a main region, one heading, a title, announced.
  expect(within(screen.getByRole('main')).getByRole('heading', { level: 1, name: 'Loading...' })).toBeTruthy()
  expect(screen.getByRole('status').textContent).toBe('Loading...')
  expect(document.title).toBe('Loading... · DocChat')
  me.release()

  expect(await screen.findByText(ada.email)).toBeTruthy()
  expect(screen.queryByText('Loading...')).toBeNull()
})

test('without a session it replaces /dashboard with /login after three refresh attempts', async () => {
  const refresh = counted(authEndpoints.refreshToken, () => errorResponse(401, 'Session expired'))
  server.use(fail(authEndpoints.me, 401), refresh.handler)
  const { history, log } = renderApp('/dashboard')

  expect(await screen.findByText('Loading...')).toBeTruthy()

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(history).toEqual(['/login'])
  expect(refresh.calls()).toBe(MAX_REFRESH_ATTEMPTS)
  expect(log.error).not.toHaveBeenCalled()
  expect(log.warn).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS)
})

test('a refreshed token keeps me signed in', async () => {
  const me = counted(authEndpoints.me, (call) =>
    call === 1 ? errorResponse(401, 'Expired') : okResponse(authEndpoints.me, { success: true, data: ada }),
  )
  server.use(me.handler, ok(authEndpoints.refreshToken, { success: true, data: { user: ada } }))
  const { currentPath } = renderApp('/dashboard')

  expect(await screen.findByText(ada.email)).toBeTruthy()
  expect(currentPath()).toBe('/dashboard')
})

test('an unknown path goes to /login', async () => {
  const { history } = renderApp('/no/such/page')

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(history).toEqual(['/login'])
})

test('a server error or an unreachable server is not a sign-out: I stay, told it is retrying, and get in when it answers', async () => {
  const me = counted(authEndpoints.me, (call) =>
    call === 1
      ? errorResponse(500, 'Database down')
      : okResponse(authEndpoints.me, { success: true, data: ada }),
  )
  server.use(me.handler)
  const { log, currentPath, history } = renderApp('/dashboard')

  expect(await screen.findByText(UNREACHABLE_TEXT)).toBeTruthy()
  expect(await screen.findByText(ada.email, {}, { timeout: 3000 })).toBeTruthy()
  expect(currentPath()).toBe('/dashboard')
  expect(history).not.toContain('/login')
  expect(log.error).toHaveBeenCalled()
})

test('signing in after being turned away reaches the dashboard', async () => {
  server.use(...signedOut())
  const { user, currentPath } = renderApp('/dashboard')
  await screen.findByRole('heading', { name: 'Welcome Back' })

  server.use(ok(authEndpoints.login, { success: true, data: { user: ada } }), signedIn())
  await user.type(screen.getByLabelText('Email'), ada.email)
  await user.type(screen.getByLabelText('Password'), 'correct horse')
  await user.click(screen.getByRole('button', { name: 'Sign In' }))

  expect(await screen.findByText(ada.email)).toBeTruthy()
  expect(currentPath()).toBe('/dashboard')
})
