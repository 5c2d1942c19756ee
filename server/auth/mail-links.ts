/**
 * What is done by a link in a mail (D76): a forgotten password is reset, a new account's email
 * is confirmed. Each link carries 256 random bits, works once and for a short while, and is
 * stored only as its sha-256.
 *
 * Asking for a reset answers the same, in the same time, whether or not the email has an
 * account: the route answers at once and the work (look-up, token, mail) runs after it, so
 * neither the answer nor its timing tells who has an account here.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Mailer } from '../mail/mailer.ts'
import type { AccountTokenPurpose, AccountTokensRepository } from './account-tokens-repository.ts'
import type { AuthService } from './auth-service.ts'
import type { UserRecord, UsersRepository } from './users-repository.ts'

export const RESET_TOKEN_TTL_MS = 30 * 60_000
export const CONFIRM_TOKEN_TTL_MS = 48 * 60 * 60_000

/** The SPA's pages the links open (src/lib/paths.ts has the same). */
export const RESET_PASSWORD_PAGE = '/reset-password'
export const CONFIRM_EMAIL_PAGE = '/confirm-email'

export const MAIL_LINK_MESSAGES = {
  mailOff: 'Password reset by email is not available on this server: it cannot send mail. Ask its operator.',
  resetRefused:
    'This reset link does not work: it was used already, has expired (links last 30 minutes) or is not one we sent. Ask for a new one.',
  confirmRefused:
    'This confirmation link does not work: it was used already, has expired or is not one we sent. Sign in to get a new one.',
} as const

export type MailLinks = ReturnType<typeof createMailLinks>

type Deps = {
  users: UsersRepository
  tokens: AccountTokensRepository
  auth: AuthService
  mailer: Mailer
  publicUrl: string
  log: FastifyBaseLogger
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function createMailLinks({ users, tokens, auth, mailer, publicUrl, log }: Deps) {
  /** Work that runs after its answer was sent; `settled()` waits for it (closing, tests). */
  const background = new Set<Promise<void>>()
  async function issue(userId: string, purpose: AccountTokenPurpose, ttlMs: number): Promise<string> {
    const token = randomBytes(32).toString('base64url')
    const at = auth.now()
    await tokens.issue({
      tokenHash: sha256(token),
      userId,
      purpose,
      now: at,
      expiresAt: new Date(at.getTime() + ttlMs),
      replaceEarlier: purpose === 'reset-password',
    })
    return token
  }

  function pageUrl(page: string, token: string): string {
    const url = new URL(page, publicUrl)
    url.searchParams.set('token', token)
    return url.toString()
  }

  /** A new reset link for the account; its earlier reset links stop working. */
  async function resetLink(record: UserRecord): Promise<string> {
    return pageUrl(RESET_PASSWORD_PAGE, await issue(record.id, 'reset-password', RESET_TOKEN_TTL_MS))
  }

  /** A reset link, mailed to the account's address. */
  async function sendResetLink(record: UserRecord): Promise<void> {
    const url = await resetLink(record)
    await mailer.send({
      to: record.email,
      subject: 'Reset your DocChat password',
      paragraphs: [
        'Someone (we hope you) asked to reset the password of your DocChat account.',
        'The link below works once, for 30 minutes. Setting a new password signs you out everywhere.',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ],
      link: { label: 'Choose a new password', url },
    })
    log.info({ event: 'auth.reset.sent', userId: record.id }, 'password reset link sent')
  }

  return {
    resetLink,

    inBackground(work: Promise<void>): void {
      background.add(work)
      void work.finally(() => background.delete(work))
    },

    async settled(): Promise<void> {
      await Promise.all([...background])
    },

    /**
     * Sends a reset link if the email has an account that may sign in; nothing otherwise. Runs
     * after the answer (see above), so it never throws: a failure is logged.
     */
    async forgotPassword(email: string): Promise<void> {
      try {
        const record = await users.findByEmail(email)
        if (!record || record.disabledAt !== null) return
        await sendResetLink(record)
      } catch (error) {
        log.error({ event: 'auth.reset.failed', err: error }, 'sending a password reset link failed')
      }
    },

    /** Sets the new password and ends every sign-in of the account; false for a link that does not work. */
    async resetPassword(token: string, password: string): Promise<boolean> {
      const taken = await tokens.take(sha256(token), 'reset-password', auth.now())
      if (!('userId' in taken)) {
        log.info({ event: 'auth.reset.refused', reason: taken.refused }, 'password reset refused')
        return false
      }
      await auth.setPassword(taken.userId, password)
      // The link came by mail, so the mailbox is the owner's: the email is confirmed (and proven) too.
      await users.confirmEmail(taken.userId, auth.now())
      const signedOut = await auth.revokeAll(taken.userId, 'password-reset')
      log.info({ event: 'auth.reset', userId: taken.userId, signedOut }, 'password reset')
      return true
    },

    /**
     * A confirmation link, mailed; the links mailed before it keep working (D100). The caller
     * keeps to the allowance of confirmation mails an address gets (auth-routes.ts).
     */
    async sendConfirmation(record: UserRecord): Promise<void> {
      const url = pageUrl(CONFIRM_EMAIL_PAGE, await issue(record.id, 'confirm-email', CONFIRM_TOKEN_TTL_MS))
      await mailer.send({
        to: record.email,
        subject: 'Confirm your email for DocChat',
        paragraphs: [
          'Welcome to DocChat. Confirm that this address is yours, then sign in.',
          'The link below works once, for 48 hours. If you did not sign up, ignore this mail.',
        ],
        link: { label: 'Confirm my email', url },
      })
      log.info({ event: 'auth.confirm.sent', userId: record.id }, 'email confirmation link sent')
    },

    async confirmEmail(token: string): Promise<boolean> {
      const taken = await tokens.take(sha256(token), 'confirm-email', auth.now())
      if (!('userId' in taken)) return false
      await users.confirmEmail(taken.userId, auth.now())
      log.info({ event: 'auth.confirm', userId: taken.userId }, 'email confirmed')
      return true
    },
  }
}
