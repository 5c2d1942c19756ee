/**
 * Why a password sign-in is refused, if it is: a wrong email or password alike ('credentials'),
 * and only with the right password whether the account is disabled or waits for its email to be
 * confirmed. Logged with a user id or an email's domain, never the address or the password.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { UserRecord } from './users-repository.ts'

/** A sign-in refused: a wrong email or password, or an account that may not sign in (yet). */
export type LoginRefusal = 'credentials' | 'disabled' | 'unconfirmed'

export function refusalOf(
  record: UserRecord | null | undefined,
  passwordMatches: boolean,
  email: string,
  log: FastifyBaseLogger,
): { refused: LoginRefusal; record?: UserRecord } | null {
  if (!record || !passwordMatches) {
    log.info({ event: 'auth.login.failed', emailDomain: emailDomain(email) }, 'sign-in refused')
    return { refused: 'credentials' }
  }
  if (record.disabledAt !== null) {
    log.info({ event: 'auth.login.disabled', userId: record.id }, 'sign-in refused: account disabled')
    return { refused: 'disabled', record }
  }
  if (record.emailConfirmationPending) {
    log.info({ event: 'auth.login.unconfirmed', userId: record.id }, 'sign-in refused: email unconfirmed')
    return { refused: 'unconfirmed', record }
  }
  return null
}

/** What auth logs may say about an email: its domain. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase()
}
