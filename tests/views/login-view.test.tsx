import { screen, waitFor } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { ada, fail, held, server, signedIn, unreachable } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email)
  await user.type(screen.getByLabelText('Password'), password)
  await user.click(screen.getByRole('button', { name: 'Sign In' }))
}

test('shows the sign-in screen with its heading, fields and link to sign up', async () => {
  const { user, currentPath } = renderApp('/login')

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(screen.getByText('Sign in to your dashboard')).toBeTruthy()
  expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email')
  expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password')
  expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy()

  await user.click(screen.getByRole('link', { name: 'Sign up' }))

  expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeTruthy()
  expect(currentPath()).toBe('/register')
})

test('says which fields are missing or malformed, in the spec words', async () => {
  const { user } = renderApp('/login')

  await user.click(await screen.findByRole('button', { name: 'Sign In' }))
  expect(await screen.findByText('Email is required')).toBeTruthy()
  expect(screen.getByText('Password is required')).toBeTruthy()

  await user.type(screen.getByLabelText('Email'), 'not-an-email')
  expect(await screen.findByText('Invalid email')).toBeTruthy()
  expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true')
})

test('the show/hide toggle reveals and hides the password', async () => {
  const { user } = renderApp('/login')
  const password = await screen.findByLabelText('Password')
  const show = screen.getByRole('button', { name: 'Show password' })
  expect(show.getAttribute('aria-pressed')).toBe('false')

  await user.click(show)

  expect(password.getAttribute('type')).toBe('text')
  const hide = screen.getByRole('button', { name: 'Hide password' })
  expect(hide.getAttribute('aria-pressed')).toBe('true')

  await user.click(hide)
  expect(password.getAttribute('type')).toBe('password')
})

test('reads "Signing in..." while busy, then lands on the dashboard showing my email', async () => {
  const login = held(authEndpoints.login, { success: true, data: { user: ada } })
  server.use(login.handler, signedIn())
  const { user, currentPath } = renderApp('/login')

  await fillAndSubmit(user, ada.email, 'correct horse')

  const busy = await screen.findByRole('button', { name: 'Signing in...' })
  expect((busy as HTMLButtonElement).disabled).toBe(true)
  login.release()
  expect(await screen.findByText(ada.email)).toBeTruthy()
  expect(currentPath()).toBe('/dashboard')
})

test.each([400, 401])('a %i answer shows "Invalid email or password"', async (status) => {
  server.use(fail(authEndpoints.login, status, 'Wrong email or password'))
  const { user, currentPath } = renderApp('/login')

  await fillAndSubmit(user, ada.email, 'wrong')

  expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password')
  expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy()
  expect(currentPath()).toBe('/login')
})

test('too many attempts shows the server message', async () => {
  server.use(fail(authEndpoints.login, 429, 'Too many attempts. Try again in 15 minutes.'))
  const { user } = renderApp('/login')

  await fillAndSubmit(user, ada.email, 'wrong')

  expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Try again in 15 minutes.')
})

test.each([
  ['the server fails', fail(authEndpoints.login, 500, 'Internal error')],
  ['the network is down', unreachable(authEndpoints.login)],
])('when %s it says something went wrong', async (_, handler) => {
  server.use(handler)
  const { user } = renderApp('/login')

  await fillAndSubmit(user, ada.email, 'correct horse')

  expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again later.')
})

test('the error clears when I try again', async () => {
  server.use(fail(authEndpoints.login, 401))
  const { user } = renderApp('/login')
  await fillAndSubmit(user, ada.email, 'wrong')
  await screen.findByRole('alert')

  const login = held(authEndpoints.login, { success: true, data: { user: ada } })
  server.use(login.handler, signedIn())
  await user.click(screen.getByRole('button', { name: 'Sign In' }))

  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  login.release()
  expect(await screen.findByText(ada.email)).toBeTruthy()
})
