import { screen, waitFor } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { ACCOUNT_CREATED } from '#src/features/auth/login-notice.ts'
import { ada, fail, held, server, unreachable } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const password = 'correct horse'

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], confirm = password) {
  await user.type(await screen.findByLabelText('Email'), ada.email)
  await user.type(screen.getByLabelText('Password'), password)
  await user.type(screen.getByLabelText('Confirm Password'), confirm)
  await user.click(screen.getByRole('button', { name: 'Create Account' }))
}

test('shows the sign-up screen with a link back to sign in', async () => {
  const { user, currentPath } = renderApp('/register')

  expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeTruthy()
  expect(screen.getByLabelText('Email')).toBeTruthy()
  expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password')
  expect(screen.getByLabelText('Confirm Password').getAttribute('type')).toBe('password')

  await user.click(screen.getByRole('link', { name: 'Sign in' }))

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(currentPath()).toBe('/login')
})

test('says which fields are missing, in the spec words', async () => {
  const { user } = renderApp('/register')

  await user.click(await screen.findByRole('button', { name: 'Create Account' }))

  expect(await screen.findByText('Email is required')).toBeTruthy()
  expect(screen.getByText('Password is required')).toBeTruthy()
  expect(screen.getByText('Confirm Password is required')).toBeTruthy()
})

test('says when the email is malformed, the password short or the passwords differ', async () => {
  const { user } = renderApp('/register')
  await user.type(await screen.findByLabelText('Email'), 'not-an-email')
  await user.type(screen.getByLabelText('Password'), 'short')
  await user.type(screen.getByLabelText('Confirm Password'), 'different')

  await user.click(screen.getByRole('button', { name: 'Create Account' }))

  expect(await screen.findByText('Invalid email')).toBeTruthy()
  expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy()

  await user.clear(screen.getByLabelText('Email'))
  await user.type(screen.getByLabelText('Email'), ada.email)
  await user.type(screen.getByLabelText('Password'), 'er-still')

  expect(await screen.findByText('Passwords must match')).toBeTruthy()
})

test('the confirm toggle follows the password toggle: either one shows or hides both', async () => {
  const { user } = renderApp('/register')
  const passwordInput = await screen.findByLabelText('Password')
  const confirmInput = screen.getByLabelText('Confirm Password')
  const [passwordToggle, confirmToggle] = screen.getAllByRole('button', { name: 'Show password' })
  if (!passwordToggle || !confirmToggle) throw new Error('expected two toggles')

  await user.click(confirmToggle)

  expect(passwordInput.getAttribute('type')).toBe('text')
  expect(confirmInput.getAttribute('type')).toBe('text')
  const hideToggles = screen.getAllByRole('button', { name: 'Hide password' })
  expect(hideToggles.map((toggle) => toggle.getAttribute('aria-pressed'))).toEqual(['true', 'true'])

  await user.click(passwordToggle)

  expect(passwordInput.getAttribute('type')).toBe('password')
  expect(confirmInput.getAttribute('type')).toBe('password')
  expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2)
})

test('reads "Creating account..." while busy, then goes to sign in', async () => {
  const register = held(authEndpoints.register, { success: true, data: { user: ada } }, 201)
  server.use(register.handler)
  const { user, currentPath } = renderApp('/register')

  await fillAndSubmit(user)

  const busy = await screen.findByRole('button', { name: 'Creating account...' })
  expect((busy as HTMLButtonElement).disabled).toBe(true)
  register.release()
  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(currentPath()).toBe('/login')
  expect((await screen.findByRole('status')).textContent).toBe(ACCOUNT_CREATED)
  expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(ada.email)
  expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('')
})

test('a rate-limited sign-up shows the server\'s "Too many attempts…" sentence', async () => {
  server.use(fail(authEndpoints.register, 429, 'Too many attempts. Try again in 15 minutes.'))
  const { user, currentPath } = renderApp('/register')

  await fillAndSubmit(user)

  expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Try again in 15 minutes.')
  expect(currentPath()).toBe('/register')
})

test('an invalid submit moves the focus to the first invalid field, its message read with it', async () => {
  const { user } = renderApp('/register')
  await user.type(await screen.findByLabelText('Email'), ada.email)

  await user.click(screen.getByRole('button', { name: 'Create Account' }))

  const passwordInput = screen.getByLabelText('Password')
  await waitFor(() => expect(document.activeElement).toBe(passwordInput))
  const described = document.getElementById(passwordInput.getAttribute('aria-describedby') ?? '')
  expect(described?.textContent).toBe('Password is required')
  expect(described?.getAttribute('aria-live')).toBe('polite')
})

test('a taken email says so', async () => {
  server.use(fail(authEndpoints.register, 409, 'Email already registered'))
  const { user, currentPath } = renderApp('/register')

  await fillAndSubmit(user)

  expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists.')
  expect(currentPath()).toBe('/register')
})

test.each([
  ['the server fails', fail(authEndpoints.register, 500)],
  ['the network is down', unreachable(authEndpoints.register)],
])('when %s it says the account could not be created', async (_, handler) => {
  server.use(handler)
  const { user } = renderApp('/register')

  await fillAndSubmit(user)

  expect((await screen.findByRole('alert')).textContent).toBe('Failed to create account. Please try again.')
})
