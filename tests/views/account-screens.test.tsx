/**
 * The account screens beside the spec's: 'Forgot password?' and Sign in with Google on /login,
 * asking for a link, choosing a new password from one, and Settings' password, sessions and
 * data cards — through the real providers, routes and machines, answered by MSW.
 */
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'vitest'
import { accountEndpoints } from '#contracts/account.ts'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints, GOOGLE_SIGN_IN_NOTICES, GOOGLE_SIGN_IN_PATH } from '#contracts/auth.ts'
import { usageEndpoints } from '#contracts/usage.ts'
import { button } from '#src/theme/button.ts'
import { ada, fail, ok, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const options = (over: object) =>
  ok(authEndpoints.options, {
    success: true,
    data: { google: false, passwordReset: true, signup: 'open', emailVerification: false, ...over },
  })

test('/login offers Forgot password? and, when the server has Google, Sign in with Google', async () => {
  server.use(options({ google: true }))
  const { user, currentPath } = renderApp('/login')
  const google = await screen.findByRole('link', { name: 'Sign in with Google' })
  expect(google.getAttribute('href')).toBe(GOOGLE_SIGN_IN_PATH)
  await user.click(screen.getByRole('link', { name: 'Forgot password?' }))
  expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeTruthy()
  expect(currentPath()).toBe('/forgot-password')
})

test('without mail or Google, /login shows only the spec’s form', async () => {
  server.use(options({ passwordReset: false }))
  renderApp('/login')
  await waitFor(() => expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull())
  expect(screen.queryByRole('link', { name: 'Sign in with Google' })).toBeNull()
})

test('/login says why Google sent the person back', async () => {
  renderApp('/login?google=unverified')
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Google has not verified this email address, so it cannot be used to sign in here.',
  )
})

test('asking for a reset link says the same whatever the email, and can be asked again', async () => {
  let asked = ''
  server.use(
    http.post(urlOf(accountLinkEndpoints.forgotPassword), async ({ request }) => {
      asked = ((await request.json()) as { email: string }).email
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  const { user } = renderApp('/forgot-password')
  await user.type(await screen.findByLabelText('Email'), 'ada@example.com')
  await user.click(screen.getByRole('button', { name: 'Send reset link' }))
  expect((await screen.findByRole('status')).textContent).toContain(
    'If an account exists for ada@example.com, a link to choose a new password is on its way.',
  )
  expect(asked).toBe('ada@example.com')
  await user.click(screen.getByRole('button', { name: 'Use another email' }))
  expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeTruthy()
})

test('a new password from a link goes to /login, which says it is changed', async () => {
  server.use(ok(accountLinkEndpoints.resetPassword, { success: true, data: null }))
  const { user, currentPath } = renderApp(`/reset-password?token=${'a'.repeat(43)}`)
  await user.type(await screen.findByLabelText('Password'), 'my new password')
  await user.type(screen.getByLabelText('Confirm Password'), 'my new password')
  await user.click(screen.getByRole('button', { name: 'Set new password' }))
  expect((await screen.findByRole('status')).textContent).toBe(
    'Your password is changed and you are signed out everywhere. Sign in with the new one.',
  )
  expect(currentPath()).toBe('/login?notice=password-reset')
})

test('a used link says so and offers a new one; the form keeps the spec’s rules', async () => {
  const refusal = 'This reset link does not work: it was used already. Ask for a new one.'
  server.use(fail(accountLinkEndpoints.resetPassword, 400, refusal))
  const { user } = renderApp(`/reset-password?token=${'a'.repeat(43)}`)
  await user.type(await screen.findByLabelText('Password'), 'short')
  await user.click(screen.getByRole('button', { name: 'Set new password' }))
  expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy()
  await user.clear(screen.getByLabelText('Password'))
  await user.type(screen.getByLabelText('Password'), 'long enough')
  await user.type(screen.getByLabelText('Confirm Password'), 'long enough')
  await user.click(screen.getByRole('button', { name: 'Set new password' }))
  expect((await screen.findByRole('alert')).textContent).toBe(refusal)
  expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
    '/forgot-password',
  )
})

const here = {
  id: '6f1f2a4e-1111-4c55-8a86-9c2f4b1d2e11',
  device: 'Chrome on Linux',
  address: '192.0.2.1',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: '2026-01-02T00:00:00.000Z',
  current: true,
}
const laptop = {
  ...here,
  id: '6f1f2a4e-2222-4c55-8a86-9c2f4b1d2e11',
  device: 'Firefox on Windows',
  current: false,
}

test('Settings lists where I am signed in, and signs another session out', async () => {
  let sessions = [here, laptop]
  server.use(
    signedIn(),
    http.get(urlOf(accountEndpoints.listSessions), () =>
      HttpResponse.json({ success: true, data: { sessions } }),
    ),
    http.delete(new URL('/api/v1/auth/sessions/:id', window.location.origin).href, ({ params }) => {
      sessions = sessions.filter((s) => s.id !== params.id)
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  const { user } = renderApp('/dashboard/settings')
  const list = await screen.findByRole('list', { name: 'Sessions' })
  expect(await within(list).findByText('Firefox on Windows')).toBeTruthy()
  await user.click(within(list).getByRole('button', { name: /^Sign out Firefox on Windows/ }))
  await waitFor(() => expect(within(list).queryByText('Firefox on Windows')).toBeNull())
  expect(within(list).getByText(/this browser/)).toBeTruthy()
})

test('Settings changes the password with the current one and says how many sessions ended', async () => {
  server.use(signedIn(), ok(accountEndpoints.changePassword, { success: true, data: { signedOut: 2 } }))
  const { user } = renderApp('/dashboard/settings')
  await user.type(await screen.findByLabelText('Current password'), 'old password')
  await user.type(screen.getByLabelText('New password'), 'new password')
  await user.type(screen.getAllByLabelText('Confirm Password')[0] as HTMLElement, 'new password')
  await user.click(screen.getByRole('button', { name: 'Change password' }))
  expect((await screen.findByText(/Password changed\./)).textContent).toBe(
    'Password changed. 2 other sessions were signed out.',
  )
  await waitFor(() => expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe(''))
  expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('')
})

test('a wrong current password shows the error and keeps all three fields as typed', async () => {
  server.use(signedIn(), fail(accountEndpoints.changePassword, 400, 'The current password is not right.'))
  const { user } = renderApp('/dashboard/settings')
  const current = (await screen.findByLabelText('Current password')) as HTMLInputElement
  const next = screen.getByLabelText('New password') as HTMLInputElement
  const confirm = screen.getAllByLabelText('Confirm Password')[0] as HTMLInputElement
  await user.type(current, 'wrong password')
  await user.type(next, 'new password')
  await user.type(confirm, 'new password')
  await user.click(screen.getByRole('button', { name: 'Change password' }))

  expect(await screen.findByText('The current password is not right.')).toBeTruthy()
  expect([current.value, next.value, confirm.value]).toEqual([
    'wrong password',
    'new password',
    'new password',
  ])
})

test('a Google sign-in that took the account back lands on Settings saying so', async () => {
  server.use(signedIn())
  renderApp('/dashboard/settings?google=account-claimed')
  expect((await screen.findByText(/before you proved it was yours/)).textContent).toBe(
    GOOGLE_SIGN_IN_NOTICES['account-claimed'],
  )
})

test('deleting my account asks for the password, then lands on /login saying it is deleted', async () => {
  let confirmation: unknown
  server.use(
    signedIn(),
    http.post(urlOf(accountEndpoints.deleteAccount), async ({ request }) => {
      confirmation = await request.json()
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  const { user, currentPath } = renderApp('/dashboard/settings')
  await user.click(await screen.findByRole('button', { name: 'Delete my account' }))
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
  await user.type(within(dialog).getByLabelText('Password'), 'my password')
  // The destroying action looks like one (red), not like the blue primary of every form.
  expect(within(dialog).getByRole('button', { name: 'Delete my account' }).className).toBe(
    button({ variant: 'danger' }),
  )
  await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
  expect((await screen.findByRole('status')).textContent).toBe(
    'Your account and everything it held are deleted.',
  )
  expect(confirmation).toEqual({ password: 'my password' })
  expect(currentPath()).toBe('/login?notice=account-deleted')
  expect(screen.queryByText(ada.email)).toBeNull()
})

const none = { tokens: 0, answers: 0 }
const usageDay = (day: string, app: number, published: number) => ({
  day,
  sources: {
    app: { tokens: app, answers: app > 0 ? 2 : 0 },
    api: none,
    published: { tokens: published, answers: published > 0 ? 1 : 0 },
  },
})

test('Settings → Usage draws the last days by source, with this month and every figure as a table', async () => {
  let asked = ''
  server.use(
    signedIn(),
    http.get(urlOf(usageEndpoints.usage), ({ request }) => {
      asked = new URL(request.url).search
      return HttpResponse.json({
        success: true,
        data: {
          days: [usageDay('2026-01-01', 0, 0), usageDay('2026-01-02', 1200, 300)],
          month: {
            month: '2026-01',
            sources: { app: { tokens: 1200, answers: 2 }, api: none, published: { tokens: 300, answers: 1 } },
            keys: [],
            assistants: [],
          },
          tokensPerDay: 5000,
        },
      })
    }),
  )
  const { user } = renderApp('/dashboard/settings')
  const usage = await screen.findByRole('region', { name: 'Usage' })
  expect(
    await within(usage).findByRole('img', {
      name: 'Tokens in the last 2 days: 1,500; the most on 2026-01-02: 1,500.',
    }),
  ).toBeTruthy()
  expect(
    within(usage).getByRole('img', { name: 'Answers in the last 2 days: 3; the most on 2026-01-02: 3.' }),
  ).toBeTruthy()
  expect(asked).toBe('?days=30')
  expect(within(usage).getByText('January 2026, tokens')).toBeTruthy()
  expect(within(usage).getByText('1,500')).toBeTruthy()
  expect(within(usage).getByText(/5,000 tokens a day/)).toBeTruthy()

  await user.click(within(usage).getByText('Show the figures as a table'))
  const table = within(usage).getByRole('table', { name: 'Usage per day' })
  const today = within(table).getByRole('row', { name: /^2026-01-02/ })
  expect(
    within(today)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toEqual(['1,200', '0', '300', '2', '0', '1'])
})

test('Settings → Usage shows this month per API key and per assistant, below the charts', async () => {
  server.use(
    signedIn(),
    http.get(urlOf(usageEndpoints.usage), () =>
      HttpResponse.json({
        success: true,
        data: {
          days: [usageDay('2026-01-02', 1200, 300)],
          month: {
            month: '2026-01',
            sources: { app: { tokens: 1200, answers: 2 }, api: none, published: { tokens: 300, answers: 1 } },
            keys: [
              { id: 'k1', name: 'Slack bot', prefix: 'dc_AbCd1234', tokens: 1834, answers: 7 },
              { id: 'k2', name: null, prefix: null, tokens: 12, answers: 1 },
            ],
            assistants: [],
          },
          tokensPerDay: 0,
        },
      }),
    ),
  )
  renderApp('/dashboard/settings')
  const usage = await screen.findByRole('region', { name: 'Usage' })
  const keys = await within(usage).findByRole('table', { name: 'January 2026, per API key' })
  const rows = within(keys)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [
      row.querySelector('th')?.textContent,
      ...within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ])
  expect(rows).toEqual([
    ['Slack bot (dc_AbCd1234…)', '1,834', '7'],
    ['Deleted key', '12', '1'],
  ])
  const assistants = within(usage).getByRole('region', { name: 'January 2026, per assistant' })
  expect(within(assistants).queryByRole('table')).toBeNull()
  expect(within(assistants).getByText('No answers by an assistant this month.')).toBeTruthy()
})

test('Settings → Usage says when it cannot load, and loads on Try again', async () => {
  let calls = 0
  server.use(
    signedIn(),
    http.get(urlOf(usageEndpoints.usage), () => {
      calls += 1
      if (calls === 1)
        return HttpResponse.json({ success: false, message: 'Request failed' }, { status: 500 })
      return HttpResponse.json({
        success: true,
        data: {
          days: [usageDay('2026-01-02', 42, 0)],
          month: {
            month: '2026-01',
            sources: { app: { tokens: 42, answers: 2 }, api: none, published: none },
            keys: [],
            assistants: [],
          },
          tokensPerDay: 0,
        },
      })
    }),
  )
  const { user } = renderApp('/dashboard/settings')
  const usage = await screen.findByRole('region', { name: 'Usage' })
  expect((await within(usage).findByRole('alert')).textContent).toBe('Could not load your usage.')
  await user.click(within(usage).getByRole('button', { name: 'Try again' }))
  expect(await within(usage).findByRole('img', { name: /^Tokens in the last day: 42/ })).toBeTruthy()
  expect(within(usage).queryByRole('alert')).toBeNull()
})
