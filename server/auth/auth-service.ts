/**
 * Accounts and sign-ins: register, login, refresh with rotation and reuse detection, logout, and
 * the session check every authenticated request goes through. Routes stay thin and call this;
 * the repositories hold the SQL. Auth events are logged with a user id or an email domain at
 * most, never a password, hash, token or cookie. The steps the calls share are in sign-ins.ts,
 * refreshing in refresh-rotation.ts; here each group of calls is built on them.
 */
import type { FastifyBaseLogger } from 'fastify'
import { emailDomain, type LoginRefusal, refusalOf } from './login-refusal.ts'
import { hashPassword, spendDummyVerify, verifyPassword, warmUpDummyHash } from './passwords.ts'
import { refresh } from './refresh-rotation.ts'
import { createSessionCache } from './session-cache.ts'
import type { RevokeReason } from './sessions-repository.ts'
import {
  type Auth,
  type AuthDeps,
  claimsOf,
  familyIsLive,
  remember,
  revoke,
  revokeAll,
  type Session,
  type SignedIn,
  type SignInContext,
  startSession,
  userById,
} from './sign-ins.ts'
import { hashRefreshToken } from './tokens.ts'
import type { UserRecord } from './users-repository.ts'

export type { LoginRefusal } from './login-refusal.ts'
export type { CurrentUser, Session, SignedIn, SignInContext } from './sign-ins.ts'

export type AuthService = ReturnType<typeof createAuthService>

export function createAuthService(deps: AuthDeps) {
  const { now, revocations } = deps
  const auth: Auth = { ...deps, cache: createSessionCache() }
  warmUpDummyHash()
  revocations?.subscribe({
    revoked: (familyId, userId) => auth.cache.markFamilyRevoked(familyId, userId, now().getTime()),
    missedSome: () => auth.cache.forgetFamilies(),
  })
  return {
    now,
    /** Every sign-in of the account but `exceptFamilyId` ends, here and on every instance (D39). */
    revokeAll: (userId: string, reason: RevokeReason, exceptFamilyId?: string) =>
      revokeAll(auth, userId, reason, exceptFamilyId),
    /** A new sign-in (refresh-token family) for an account already checked, with its tokens. */
    startSession: (record: UserRecord, context: SignInContext) => startSession(auth, record, context),
    ...accounts(auth),
    ...passwords(auth),
    ...signIns(auth),
    ...sessionCheck(auth),
  }
}

/** Creating an account and signing in with its password. */
function accounts(auth: Auth) {
  const { users, now } = auth
  return {
    /**
     * Null when the email is already taken (case-insensitive). Under EMAIL_VERIFICATION=required
     * the account starts unconfirmed (`confirmationPending`) and cannot sign in until it is.
     */
    async register(
      input: { email: string; password: string; confirmationPending?: boolean },
      log: FastifyBaseLogger,
    ): Promise<UserRecord | null> {
      const passwordHash = await hashPassword(input.password)
      const record = await users.create({
        email: input.email,
        passwordHash,
        createdAt: now(),
        emailConfirmationPending: input.confirmationPending ?? false,
      })
      if (!record) {
        log.info({ event: 'auth.register.taken', emailDomain: emailDomain(input.email) }, 'sign-up refused')
        return null
      }
      log.info({ event: 'auth.register', userId: record.id }, 'account created')
      remember(auth, record)
      return record
    },

    /**
     * 'credentials' for a wrong password and for an unknown email alike, after the same argon2
     * work. Only with the right password does the person learn that the account is disabled or
     * waits for its email to be confirmed.
     */
    async login(
      input: { email: string; password: string },
      context: SignInContext,
      log: FastifyBaseLogger,
    ): Promise<SignedIn | { refused: LoginRefusal; record?: UserRecord }> {
      const record = await users.findByEmail(input.email)
      const ok = record?.passwordHash
        ? await verifyPassword(record.passwordHash, input.password)
        : await spendDummyVerify(input.password)
      const refusal = refusalOf(record, ok, input.email, log)
      if (refusal) return refusal
      if (!record) return { refused: 'credentials' }
      const signedIn = await startSession(auth, record, context)
      // The password may have been replaced or removed while it was being checked (a reset, or
      // the owner claiming the account through Google, D99), after that change ended every
      // sign-in: read after this sign-in was stored, a change is either seen here or it ended it.
      if ((await users.findById(record.id))?.passwordHash !== record.passwordHash) {
        await revoke(auth, signedIn.familyId, record.id, 'password-changed')
        log.info(
          { event: 'auth.login.raced', userId: record.id },
          'sign-in refused: password changed meanwhile',
        )
        return { refused: 'credentials' }
      }
      log.info({ event: 'auth.login', userId: record.id }, 'signed in')
      return signedIn
    },

    /** A deleted account's user leaves the cache (its sign-ins were revoked first). */
    forgetUser(userId: string): void {
      auth.cache.forgetUser(userId)
    },
  }
}

/** The account's password: checked, asked about, replaced. */
function passwords({ users }: Auth) {
  return {
    /** True when `password` is the account's (false for an account without one). */
    async checkPassword(userId: string, password: string): Promise<boolean> {
      const record = await users.findById(userId)
      return record?.passwordHash ? verifyPassword(record.passwordHash, password) : spendDummyVerify(password)
    },

    async hasPassword(userId: string): Promise<boolean> {
      return Boolean((await users.findById(userId))?.passwordHash)
    },

    /** Sets a new password; the caller decides which sign-ins end with the old one. */
    async setPassword(userId: string, password: string): Promise<void> {
      await users.setPasswordHash(userId, await hashPassword(password))
    },
  }
}

/** An account's sign-ins: listed, ended one by one, refreshed, signed out of. */
function signIns(auth: Auth) {
  const { sessions, now } = auth
  return {
    /** The account's live sign-ins, the one making the request marked. */
    async sessionsOf(userId: string, currentFamilyId: string | null) {
      const live = await sessions.listLive(userId, now())
      return live.map((family) => ({ ...family, current: family.id === currentFamilyId }))
    },

    /** Ends one sign-in of the account; false when it is not one of the account's live ones. */
    async revokeSession(userId: string, familyId: string): Promise<boolean> {
      const family = await sessions.findFamily(familyId)
      if (!family || family.userId !== userId || family.revokedAt !== null) return false
      await revoke(auth, familyId, userId, 'signed-out-remotely')
      return true
    },

    /**
     * Rotation: each refresh token works once. A used one presented again means it was copied,
     * so the whole sign-in is revoked, the successor and its access tokens included.
     */
    refresh: (refreshToken: string | undefined, log: FastifyBaseLogger): Promise<SignedIn | null> =>
      refresh(auth, refreshToken, log),

    /** Ends the sign-in named by the refresh cookie, else by the access cookie; fine with neither. */
    async logout(
      input: { refreshToken?: string; accessToken?: string },
      log: FastifyBaseLogger,
    ): Promise<void> {
      let target: { familyId: string; userId: string } | undefined
      if (input.refreshToken) {
        const found = await sessions.findToken(hashRefreshToken(input.refreshToken))
        if (found) target = { familyId: found.family.id, userId: found.family.userId }
      }
      if (!target && input.accessToken) {
        const claims = await claimsOf(auth, input.accessToken, now())
        if (claims) target = { familyId: claims.familyId, userId: claims.userId }
      }
      if (!target) return
      await revoke(auth, target.familyId, target.userId, 'logout')
      log.info({ event: 'auth.logout', userId: target.userId }, 'signed out')
    },
  }
}

/** The session check every authenticated request goes through. */
function sessionCheck(auth: Auth) {
  const { cache, now, revocations } = auth
  return {
    /**
     * The session check without any I/O: the session when the token, its sign-in and its user are
     * all cached and valid, null when the token is known to be dead, undefined when only
     * `authenticate` (which may query) can tell.
     */
    cachedSession(accessToken: string | undefined): Session | null | undefined {
      if (!accessToken) return null
      const atMs = now().getTime()
      const claims = cache.token(accessToken, atMs)
      if (!claims) return undefined
      const family = cache.family(claims.familyId, atMs, revocations?.recheckMs())
      if (!family) return undefined
      if (!family.live || family.userId !== claims.userId || family.expiresAt <= atMs) return null
      const user = cache.user(claims.userId)
      return user ? { user, familyId: claims.familyId } : undefined
    },

    /** The session check: no database query when the token, its family and its user are cached. */
    async authenticate(accessToken: string | undefined): Promise<Session | null> {
      if (!accessToken) return null
      const at = now()
      const claims = await claimsOf(auth, accessToken, at)
      if (!claims) return null
      if (!(await familyIsLive(auth, claims.familyId, claims.userId, at))) return null
      const user = await userById(auth, claims.userId)
      return user ? { user, familyId: claims.familyId } : null
    },
  }
}
