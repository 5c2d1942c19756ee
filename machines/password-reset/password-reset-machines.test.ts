import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { provideConfirmEmailMachine } from './confirm-email-machine.ts'
import { FORGOT_PASSWORD_FAILED, provideForgotPasswordMachine } from './forgot-password-machine.ts'
import { provideResetPasswordMachine, RESET_PASSWORD_FAILED } from './reset-password-machine.ts'

function httpError(status: number, message = `HTTP ${status}`): Error & { status: number } {
  return Object.assign(new Error(message), { status })
}

const request = { token: 't'.repeat(43), password: 'new password', confirmPassword: 'new password' }

test('asking for a link is busy, then sent; another address can be asked for after', async () => {
  const forgotPassword = vi.fn().mockResolvedValue(undefined)
  const actor = createActor(provideForgotPasswordMachine({ forgotPassword })).start()
  actor.send({ type: 'forgot.submit', email: 'ada@example.com' })
  expect(actor.getSnapshot().hasTag('busy')).toBe(true)
  const sent = await waitFor(actor, (s) => s.hasTag('sent'))
  expect(sent.context.email).toBe('ada@example.com')
  expect(forgotPassword).toHaveBeenCalledWith('ada@example.com')
  actor.send({ type: 'forgot.again' })
  expect(actor.getSnapshot().value).toBe('idle')
})

test.each([
  [429, 'Too many attempts. Try again in 60 minutes.', 'Too many attempts. Try again in 60 minutes.'],
  [
    503,
    'Password reset by email is not available on this server.',
    'Password reset by email is not available on this server.',
  ],
  [500, 'Internal Server Error', FORGOT_PASSWORD_FAILED],
  [0, 'Network error', FORGOT_PASSWORD_FAILED],
])('a %i refusal shows its sentence (ours for a fault)', async (status, message, shown) => {
  const actor = createActor(
    provideForgotPasswordMachine({ forgotPassword: vi.fn().mockRejectedValue(httpError(status, message)) }),
  ).start()
  actor.send({ type: 'forgot.submit', email: 'ada@example.com' })
  const back = await waitFor(actor, (s) => s.value === 'idle')
  expect(back.context.error).toBe(shown)
})

test('a new password that is set reports it, once', async () => {
  const onReset = vi.fn()
  const resetPassword = vi.fn().mockResolvedValue(undefined)
  const actor = createActor(provideResetPasswordMachine({ resetPassword, onReset })).start()
  actor.send({ type: 'reset.submit', request })
  const done = await waitFor(actor, (s) => s.status === 'done')
  expect(done.value).toBe('done')
  expect(resetPassword).toHaveBeenCalledWith(request)
  expect(onReset).toHaveBeenCalledTimes(1)
})

test('a link that does not work ends in linkRefused with the server’s sentence', async () => {
  const onReset = vi.fn()
  const refusal = 'This reset link does not work: it was used already. Ask for a new one.'
  const actor = createActor(
    provideResetPasswordMachine({
      resetPassword: vi.fn().mockRejectedValue(httpError(400, refusal)),
      onReset,
    }),
  ).start()
  actor.send({ type: 'reset.submit', request })
  const refused = await waitFor(actor, (s) => s.status === 'done')
  expect(refused.hasTag('linkRefused')).toBe(true)
  expect(refused.context.error).toBe(refusal)
  expect(onReset).not.toHaveBeenCalled()
})

test('a server fault while resetting lets the person try again', async () => {
  const actor = createActor(
    provideResetPasswordMachine({
      resetPassword: vi.fn().mockRejectedValue(httpError(502)),
      onReset: vi.fn(),
    }),
  ).start()
  actor.send({ type: 'reset.submit', request })
  const back = await waitFor(actor, (s) => s.value === 'idle')
  expect(back.context.error).toBe(RESET_PASSWORD_FAILED)
})

test('a confirmation link is confirmed at once, or refused with the server’s sentence', async () => {
  const confirmed = createActor(
    provideConfirmEmailMachine({ confirmEmail: vi.fn().mockResolvedValue(undefined) }),
    {
      input: { token: 'abc' },
    },
  ).start()
  expect((await waitFor(confirmed, (s) => s.status === 'done')).hasTag('confirmed')).toBe(true)

  const refused = createActor(
    provideConfirmEmailMachine({
      confirmEmail: vi.fn().mockRejectedValue(httpError(400, 'This confirmation link does not work.')),
    }),
    { input: { token: 'abc' } },
  ).start()
  const end = await waitFor(refused, (s) => s.status === 'done')
  expect(end.hasTag('confirmed')).toBe(false)
  expect(end.context.error).toBe('This confirmation link does not work.')
})
