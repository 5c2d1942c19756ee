/**
 * Which account a Google identity signs into (D77): the one already linked to it; else the
 * account with the same email, linked now, but only because Google says it verified that email;
 * else a new account without a password, if sign-up is open to that email. An unverified Google
 * email is never trusted, whatever it matches.
 *
 * An account whose address was never proven (D99: no mailed link followed, no Google) may have
 * been registered by someone who guessed the address before its owner came. When its owner
 * arrives through Google, the password is removed and every sign-in of the account ends, on every
 * instance, before the owner's own sign-in starts; the owner is told so.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { GoogleSignInNotice, GoogleSignInOutcome } from '#contracts/auth.ts'
import type { SignupConfig } from '../config.ts'
import type { AuthService, SignedIn, SignInContext } from './auth-service.ts'
import type { GoogleIdentity } from './google-sign-in.ts'
import { signupRefusal } from './signup-policy.ts'
import type { UserRecord, UsersRepository } from './users-repository.ts'

/**
 * What a domain above auth does when an unproven account is taken back (D99): whatever the
 * person who held the password could still reach without signing in (a Drive they connected,
 * the share links they made) ends before the owner's sign-in starts.
 */
export type ClaimHandler = (userId: string, log: FastifyBaseLogger) => Promise<void>

/** A Google sign-in that worked, and what the owner must be told, if anything. */
export type GoogleSignedIn = SignedIn & { notice?: GoogleSignInNotice }

export type GoogleAccounts = ReturnType<typeof createGoogleAccounts>

export function createGoogleAccounts(deps: {
  users: UsersRepository
  auth: AuthService
  signup: SignupConfig
}) {
  const { users, auth, signup } = deps
  const claimHandlers: ClaimHandler[] = []

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
      emailProvenAt: auth.now(),
    })
    if (!created) return 'failed'
    log.info({ event: 'auth.register.google', userId: created.id }, 'account created with Google')
    return created
  }

  /**
   * The owner, vouched for by Google, takes the account back: password removed first (no new
   * sign-in with it), then every sign-in of the account ended here and on every instance (D39);
   * the address is confirmed and proven from now on. True when someone else could have been using
   * it (a password, or a sign-in).
   */
  async function claim(account: UserRecord, log: FastifyBaseLogger): Promise<boolean> {
    await users.claimUnproven(account.id, auth.now())
    const signedOut = await auth.revokeAll(account.id, 'claimed-by-google')
    for (const handler of claimHandlers) await handler(account.id, log)
    const hadPassword = account.passwordHash !== null
    log.warn(
      { event: 'auth.google.claimed', userId: account.id, hadPassword, signedOut },
      'Google sign-in took over an account whose address was never proven',
    )
    return hadPassword || signedOut > 0
  }

  return {
    /** Registered by the plugins of the domains that hold what a taken-back account must lose. */
    onClaimed(handler: ClaimHandler): void {
      claimHandlers.push(handler)
    },

    async signIn(
      identity: GoogleIdentity,
      context: SignInContext,
      log: FastifyBaseLogger,
    ): Promise<GoogleSignedIn | GoogleSignInOutcome> {
      if (!identity.emailVerified) return 'unverified'
      const account = await accountFor(identity, log)
      if (typeof account === 'string') return account
      if (account.disabledAt !== null) return 'disabled'
      const sameAddress = account.email.toLowerCase() === identity.email.toLowerCase()
      // Google verified this very address: that is the confirmation EMAIL_VERIFICATION asks for.
      if (account.emailConfirmationPending && !sameAddress) return 'unverified'
      const claimed = account.emailProvenAt === null && (await claim(account, log))
      const signedIn = await auth.startSession(account, context)
      log.info({ event: 'auth.login.google', userId: account.id }, 'signed in with Google')
      return claimed ? { ...signedIn, notice: 'account-claimed' } : signedIn
    },
  }
}
