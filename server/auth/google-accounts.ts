/**
 * Which account a Google identity signs into (D77): the one already linked to it; else the
 * account with the same email, linked now, but only because Google says it verified that email;
 * else a new account without a password, if sign-up is open to that email. An unverified Google
 * email is never trusted, whatever it matches.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { GoogleSignInOutcome } from '#contracts/auth.ts'
import type { SignupConfig } from '../config.ts'
import type { AuthService, SignedIn, SignInContext } from './auth-service.ts'
import type { GoogleIdentity } from './google-sign-in.ts'
import { signupRefusal } from './signup-policy.ts'
import type { UserRecord, UsersRepository } from './users-repository.ts'

export type GoogleAccounts = ReturnType<typeof createGoogleAccounts>

export function createGoogleAccounts(deps: {
  users: UsersRepository
  auth: AuthService
  signup: SignupConfig
}) {
  const { users, auth, signup } = deps

  async function accountFor(
    identity: GoogleIdentity,
    log: FastifyBaseLogger,
  ): Promise<UserRecord | GoogleSignInOutcome> {
    const linked = await users.findByGoogleSubject(identity.subject)
    if (linked) return linked
    const sameEmail = await users.findByEmail(identity.email)
    if (sameEmail) {
      if (sameEmail.googleSubject !== null) return 'failed'
      if (!(await users.linkGoogle(sameEmail.id, identity.subject))) return 'failed'
      log.info({ event: 'auth.google.linked', userId: sameEmail.id }, 'Google linked to an existing account')
      return { ...sameEmail, googleSubject: identity.subject }
    }
    const refusal = signupRefusal(identity.email, signup)
    if (refusal) return refusal === 'closed' ? 'signup-closed' : 'signup-domain'
    const created = await users.create({
      email: identity.email,
      passwordHash: null,
      createdAt: auth.now(),
      googleSubject: identity.subject,
    })
    if (!created) return 'failed'
    log.info({ event: 'auth.register.google', userId: created.id }, 'account created with Google')
    return created
  }

  return {
    async signIn(
      identity: GoogleIdentity,
      context: SignInContext,
      log: FastifyBaseLogger,
    ): Promise<SignedIn | GoogleSignInOutcome> {
      if (!identity.emailVerified) return 'unverified'
      const account = await accountFor(identity, log)
      if (typeof account === 'string') return account
      if (account.disabledAt !== null) return 'disabled'
      // Google verified this very address: that is the confirmation EMAIL_VERIFICATION asks for.
      if (account.emailConfirmationPending) {
        if (account.email.toLowerCase() !== identity.email.toLowerCase()) return 'unverified'
        await users.confirmEmail(account.id)
      }
      const signedIn = await auth.startSession(account, context)
      log.info({ event: 'auth.login.google', userId: account.id }, 'signed in with Google')
      return signedIn
    },
  }
}
