/**
 * Accounts and sign-ins: register, login, refresh with rotation and reuse detection, logout, and
 * the session check every authenticated request goes through. Routes stay thin and call this;
 * the repositories hold the SQL. Auth events are logged with a user id or an email domain at
 * most, never a password, hash, token or cookie.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { SessionTokens } from './cookies.ts'
import { emailDomain, type LoginRefusal, refusalOf } from './login-refusal.ts'
import { hashPassword, spendDummyVerify, verifyPassword, warmUpDummyHash } from './passwords.ts'
import { type CachedUser, createSessionCache } from './session-cache.ts'
import type { RevokeReason, SessionsRepository } from './sessions-repository.ts'
import type { SharedRevocations } from './shared-revocations.ts'
import {
  type AccessClaims,
  FAMILY_MAX_AGE_MS,
  hashRefreshToken,
  newRefreshToken,
  REFRESH_GRACE_MS,
  REFRESH_TOKEN_TTL_MS,
  signAccessToken,
  successorRefreshToken,
  verifyAccessToken,
} from './tokens.ts'
import type { UserRecord, UsersRepository } from './users-repository.ts'

/** The signed-in person, as routes see it (`request.user`). */
export type CurrentUser = CachedUser

export type SignedIn = { user: CurrentUser; tokens: SessionTokens; familyId: string }

/** Who a valid access token speaks for, and which sign-in it belongs to. */
export type Session = { user: CurrentUser; familyId: string }

/** Where a sign-in comes from, kept for the sessions list. */
export type SignInContext = { userAgent: string | null; address: string | null }

export type { LoginRefusal } from './login-refusal.ts'

/** A user agent is kept for display only: a few hundred characters say all there is to say. */
const USER_AGENT_MAX = 512

export type AuthService = ReturnType<typeof createAuthService>

type Deps = {
  users: UsersRepository
  sessions: SessionsRepository
  accessTokenKey: Uint8Array
  /** deriveRefreshSuccessorKey(APP_SECRET): successors are derived from the token they replace. */
  successorKey: Uint8Array
  now: () => Date
  /** Other instances' revocations (PostgreSQL); absent: this process is the only one. */
  revocations?: SharedRevocations
}

export function createAuthService({ users, sessions, accessTokenKey, successorKey, now, revocations }: Deps) {
  const cache = createSessionCache()
  warmUpDummyHash()
  revocations?.subscribe({
    revoked: (familyId, userId) => cache.markFamilyRevoked(familyId, userId, now().getTime()),
    missedSome: () => cache.forgetFamilies(),
  })

  function remember(record: UserRecord): CurrentUser {
    const user = { id: record.id, email: record.email, createdAt: record.createdAt }
    cache.rememberUser(user)
    return user
  }

  async function userById(id: string): Promise<CurrentUser | null> {
    const cached = cache.user(id)
    if (cached) return cached
    const record = await users.findById(id)
    return record ? remember(record) : null
  }

  async function claimsOf(token: string, at: Date): Promise<AccessClaims | null> {
    const cached = cache.token(token, at.getTime())
    if (cached) return cached
    const claims = await verifyAccessToken(accessTokenKey, token, at)
    if (claims) cache.rememberToken(token, claims)
    return claims
  }

  async function familyIsLive(familyId: string, userId: string, at: Date): Promise<boolean> {
    const atMs = at.getTime()
    let state = cache.family(familyId, atMs, revocations?.recheckMs())
    if (!state) {
      const family = await sessions.findFamily(familyId)
      if (!family) return false
      state = {
        userId: family.userId,
        live: family.revokedAt === null,
        expiresAt: family.expiresAt.getTime(),
        checkedAt: atMs,
      }
      cache.rememberFamily(familyId, state)
    }
    return state.live && state.userId === userId && state.expiresAt > atMs
  }

  async function revoke(familyId: string, userId: string, reason: RevokeReason): Promise<void> {
    const at = now()
    await sessions.revokeFamily(familyId, reason, at)
    cache.markFamilyRevoked(familyId, userId, at.getTime())
    await revocations?.publish(familyId, userId)
  }

  /** Every sign-in of the account but `exceptFamilyId` ends, here and on every instance (D39). */
  async function revokeAll(userId: string, reason: RevokeReason, exceptFamilyId?: string): Promise<number> {
    const at = now()
    const revoked = await sessions.revokeAllOf(userId, reason, at, exceptFamilyId)
    for (const familyId of revoked) {
      cache.markFamilyRevoked(familyId, userId, at.getTime())
      await revocations?.publish(familyId, userId)
    }
    return revoked.length
  }

  /** A new sign-in (refresh-token family) for an account already checked, with its tokens. */
  async function startSession(record: UserRecord, context: SignInContext): Promise<SignedIn> {
    const at = now()
    const refreshToken = newRefreshToken()
    const familyExpiresAt = new Date(at.getTime() + FAMILY_MAX_AGE_MS)
    const refreshExpiresAt = new Date(at.getTime() + REFRESH_TOKEN_TTL_MS)
    const family = await sessions.startFamily({
      userId: record.id,
      now: at,
      familyExpiresAt,
      tokenHash: hashRefreshToken(refreshToken),
      tokenExpiresAt: refreshExpiresAt,
      userAgent: context.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      address: context.address,
    })
    cache.rememberFamily(family.id, {
      userId: record.id,
      live: true,
      expiresAt: familyExpiresAt.getTime(),
      checkedAt: at.getTime(),
    })
    const user = remember(record)
    return {
      user,
      familyId: family.id,
      tokens: await issueTokens(user, family.id, refreshToken, refreshExpiresAt, at),
    }
  }

  async function issueTokens(
    user: CurrentUser,
    familyId: string,
    refreshToken: string,
    refreshExpiresAt: Date,
    issuedAt: Date,
  ) {
    const access = await signAccessToken(accessTokenKey, { userId: user.id, familyId, now: issuedAt })
    const tokens: SessionTokens = {
      issuedAt,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      refreshToken,
      refreshExpiresAt,
    }
    return tokens
  }

  /**
   * The successor of `used` when `used` was rotated at most REFRESH_GRACE_MS ago and its successor
   * is still unused: a second tab that refreshed at the same moment gets the same new token.
   */
  async function withinGrace(used: string, usedAt: Date, at: Date) {
    if (at.getTime() - usedAt.getTime() > REFRESH_GRACE_MS) return null
    const token = successorRefreshToken(successorKey, used)
    const successor = await sessions.findToken(hashRefreshToken(token))
    if (!successor || successor.token.usedAt !== null || successor.token.expiresAt <= at) return null
    return { token, expiresAt: successor.token.expiresAt }
  }

  return {
    now,
    revokeAll,
    startSession,

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
      remember(record)
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
      const signedIn = await startSession(record, context)
      // The password may have been replaced or removed while it was being checked (a reset, or
      // the owner claiming the account through Google, D99), after that change ended every
      // sign-in: read after this sign-in was stored, a change is either seen here or it ended it.
      if ((await users.findById(record.id))?.passwordHash !== record.passwordHash) {
        await revoke(signedIn.familyId, record.id, 'password-changed')
        log.info(
          { event: 'auth.login.raced', userId: record.id },
          'sign-in refused: password changed meanwhile',
        )
        return { refused: 'credentials' }
      }
      log.info({ event: 'auth.login', userId: record.id }, 'signed in')
      return signedIn
    },

    /** True when `password` is the account's (false for an account without one). */
    async checkPassword(userId: string, password: string): Promise<boolean> {
      const record = await users.findById(userId)
      return record?.passwordHash ? verifyPassword(record.passwordHash, password) : spendDummyVerify(password)
    },

    /** A deleted account's user leaves the cache (its sign-ins were revoked first). */
    forgetUser(userId: string): void {
      cache.forgetUser(userId)
    },

    async hasPassword(userId: string): Promise<boolean> {
      return Boolean((await users.findById(userId))?.passwordHash)
    },

    /** Sets a new password; the caller decides which sign-ins end with the old one. */
    async setPassword(userId: string, password: string): Promise<void> {
      await users.setPasswordHash(userId, await hashPassword(password))
    },

    /** The account's live sign-ins, the one making the request marked. */
    async sessionsOf(userId: string, currentFamilyId: string | null) {
      const live = await sessions.listLive(userId, now())
      return live.map((family) => ({ ...family, current: family.id === currentFamilyId }))
    },

    /** Ends one sign-in of the account; false when it is not one of the account's live ones. */
    async revokeSession(userId: string, familyId: string): Promise<boolean> {
      const family = await sessions.findFamily(familyId)
      if (!family || family.userId !== userId || family.revokedAt !== null) return false
      await revoke(familyId, userId, 'signed-out-remotely')
      return true
    },

    /**
     * Rotation: each refresh token works once. A used one presented again means it was copied,
     * so the whole sign-in is revoked, the successor and its access tokens included.
     */
    async refresh(refreshToken: string | undefined, log: FastifyBaseLogger): Promise<SignedIn | null> {
      if (!refreshToken) return null
      const found = await sessions.findToken(hashRefreshToken(refreshToken))
      if (!found) {
        log.info({ event: 'auth.refresh.unknown' }, 'refresh refused: unknown token')
        return null
      }
      const { token, family } = found
      const at = now()
      if (family.revokedAt !== null || family.expiresAt <= at) {
        log.info({ event: 'auth.refresh.ended', userId: family.userId }, 'refresh refused: sign-in ended')
        return null
      }
      if (token.usedAt !== null) {
        const again = await withinGrace(refreshToken, token.usedAt, at)
        if (again) {
          const user = await userById(family.userId)
          if (!user) return null
          log.info(
            { event: 'auth.refresh.grace', userId: user.id },
            'session refreshed again within the grace interval',
          )
          return {
            user,
            familyId: family.id,
            tokens: await issueTokens(user, family.id, again.token, again.expiresAt, at),
          }
        }
        await revoke(family.id, family.userId, 'reuse')
        log.warn(
          { event: 'auth.refresh.reuse', userId: family.userId },
          'refresh token reused: sign-in revoked',
        )
        return null
      }
      if (token.expiresAt <= at) {
        log.info({ event: 'auth.refresh.expired', userId: family.userId }, 'refresh refused: token expired')
        return null
      }
      const next = successorRefreshToken(successorKey, refreshToken)
      const nextExpiresAt = new Date(
        Math.min(at.getTime() + REFRESH_TOKEN_TTL_MS, family.expiresAt.getTime()),
      )
      const rotated = await sessions.rotate({
        usedTokenId: token.id,
        familyId: family.id,
        now: at,
        tokenHash: hashRefreshToken(next),
        tokenExpiresAt: nextExpiresAt,
      })
      if (!rotated) {
        await revoke(family.id, family.userId, 'reuse')
        log.warn(
          { event: 'auth.refresh.reuse', userId: family.userId },
          'refresh token reused: sign-in revoked',
        )
        return null
      }
      const user = await userById(family.userId)
      if (!user) return null
      log.info({ event: 'auth.refresh', userId: user.id }, 'session refreshed')
      return {
        user,
        familyId: family.id,
        tokens: await issueTokens(user, family.id, next, nextExpiresAt, at),
      }
    },

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
        const claims = await claimsOf(input.accessToken, now())
        if (claims) target = { familyId: claims.familyId, userId: claims.userId }
      }
      if (!target) return
      await revoke(target.familyId, target.userId, 'logout')
      log.info({ event: 'auth.logout', userId: target.userId }, 'signed out')
    },

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
      const claims = await claimsOf(accessToken, at)
      if (!claims) return null
      if (!(await familyIsLive(claims.familyId, claims.userId, at))) return null
      const user = await userById(claims.userId)
      return user ? { user, familyId: claims.familyId } : null
    },
  }
}
