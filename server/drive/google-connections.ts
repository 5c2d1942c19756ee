/**
 * Connecting a person's own Google Drive (OAuth 2.0 for web-server apps, with PKCE) and using it
 * afterwards: the consent URL with a single-use state bound to the person, the callback's checks
 * and code exchange, the tokens sealed at rest, and an OAuth2Client per call that refreshes by
 * itself and writes refreshed tokens back. Which person is always the signed-in one: nothing a
 * browser sends picks a user or a token.
 * https://developers.google.com/identity/protocols/oauth2/web-server
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Credentials, OAuth2Client } from 'google-auth-library'
import type { GoogleConfig } from '../config.ts'
import { createDriveApi } from './drive-api.ts'
import type { GoogleDriveRepository } from './google-drive-repository.ts'
import { classifyGoogleError, DEFAULT_RETRY_POLICY } from './google-errors.ts'
import { googleAuth } from './google-libraries.ts'
import { createTokenCipher } from './token-crypto.ts'

export const DRIVE_READONLY_SCOPE = 'https://www.googleapis.com/auth/drive.readonly'
/** Lets DocChat create files in the person's Drive ('Upload to Drive'), and touch only those. */
export const DRIVE_FILE_SCOPE = 'https://www.googleapis.com/auth/drive.file'
/** Scopes that let DocChat add a file to the person's Drive; drive.file is what it asks for. */
export const WRITE_SCOPES = new Set([DRIVE_FILE_SCOPE, 'https://www.googleapis.com/auth/drive'])
/** Scopes that let DocChat read file contents; drive.readonly is what it asks for. */
const READ_SCOPES = new Set([DRIVE_READONLY_SCOPE, 'https://www.googleapis.com/auth/drive'])
/** How long a connect window may take, from opening to Google's redirect back. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000
/** Connect windows a person may have open at once; a newer one replaces the oldest. */
export const MAX_PENDING_OAUTH_STATES = 5
/** 256 random bits. */
const STATE_BYTES = 32

/** What the callback page says; 'connected' is the only one that stored anything. */
export type ConnectOutcome =
  | 'connected'
  | 'missing-state'
  | 'unknown-state'
  | 'expired-state'
  | 'denied'
  | 'google-error'
  | 'missing-code'
  | 'exchange-failed'
  | 'scope-missing'

export type CallbackQuery = { state?: string; code?: string; error?: string }

/** The tokens as sealed in google_connections.tokens. */
type StoredTokens = { access_token: string | null; refresh_token: string | null; expiry_date: number | null }

type Deps = {
  google: GoogleConfig
  repository: GoogleDriveRepository
  now: () => Date
  log: FastifyBaseLogger
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function createGoogleConnections(deps: Deps): GoogleConnections {
  return new GoogleConnections(deps)
}

export class GoogleConnections {
  readonly #google: GoogleConfig
  readonly #repository: GoogleDriveRepository
  readonly #now: () => Date
  readonly #log: FastifyBaseLogger
  readonly #cipher: ReturnType<typeof createTokenCipher>

  constructor({ google, repository, now, log }: Deps) {
    this.#google = google
    this.#repository = repository
    this.#now = now
    this.#log = log
    this.#cipher = createTokenCipher(google.tokenKey)
  }

  #oauthClient(): OAuth2Client {
    const { OAuth2Client } = googleAuth()
    return new OAuth2Client({
      clientId: this.#google.clientId,
      clientSecret: this.#google.clientSecret,
      redirectUri: this.#google.redirectUri,
      endpoints: this.#google.endpoints,
      // Tokens revoked or expired on Google's side while expiry_date is still ahead answer 401:
      // refresh then and try once more, rather than failing until the hour is up.
      forceRefreshOnFailure: true,
    })
  }

  #seal(userId: string, tokens: StoredTokens): string {
    return this.#cipher.encrypt(JSON.stringify(tokens), userId)
  }

  /** The stored tokens, or null when there are none or they no longer decrypt (key changed). */
  async #storedTokens(userId: string): Promise<StoredTokens | null> {
    const record = await this.#repository.findConnection(userId)
    if (!record) return null
    try {
      return JSON.parse(this.#cipher.decrypt(record.tokens, userId)) as StoredTokens
    } catch {
      this.#log.warn(
        { event: 'google.tokens.undecryptable', userId },
        'stored Google tokens do not decrypt; forgotten',
      )
      await this.#repository.deleteConnection(userId)
      return null
    }
  }

  /**
   * The consent URL for this person's connect window: a fresh state (stored hashed, bound to
   * them, 10 minutes) and a PKCE S256 challenge whose verifier stays here, sealed. prompt=consent
   * when no refresh token is stored, since Google sends one only on a consent.
   */
  async consentUrl(userId: string): Promise<string> {
    const at = this.#now()
    await this.#repository.deleteExpiredStates(at)
    const client = this.#oauthClient()
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
    const state = randomBytes(STATE_BYTES).toString('base64url')
    await this.#repository.createState(
      {
        stateHash: sha256(state),
        userId,
        codeVerifier: this.#cipher.encrypt(codeVerifier, userId),
        createdAt: at,
        expiresAt: new Date(at.getTime() + OAUTH_STATE_TTL_MS),
      },
      MAX_PENDING_OAUTH_STATES,
    )
    const hasRefreshToken = Boolean((await this.#storedTokens(userId))?.refresh_token)
    return client.generateAuthUrl({
      access_type: 'offline',
      scope: [DRIVE_READONLY_SCOPE, DRIVE_FILE_SCOPE],
      state,
      code_challenge: codeChallenge ?? '',
      code_challenge_method: googleAuth().CodeChallengeMethod.S256,
      ...(hasRefreshToken ? {} : { prompt: 'consent' }),
    })
  }

  /**
   * Google's redirect back: the state must be this person's, unspent and fresh; then the code is
   * exchanged with the verifier. Only a successful exchange with a Drive read scope stores
   * anything; an existing refresh token is kept when Google sends none.
   */
  async complete(userId: string, query: CallbackQuery): Promise<ConnectOutcome> {
    if (!query.state) return 'missing-state'
    const pending = await this.#repository.takeState(sha256(query.state), userId)
    if (!pending) return 'unknown-state'
    if (pending.expiresAt.getTime() <= this.#now().getTime()) return 'expired-state'
    if (query.error === 'access_denied') return 'denied'
    if (query.error) return 'google-error'
    if (!query.code) return 'missing-code'

    const client = this.#oauthClient()
    let tokens: Credentials
    try {
      const codeVerifier = this.#cipher.decrypt(pending.codeVerifier, userId)
      tokens = (await client.getToken({ code: query.code, codeVerifier })).tokens
    } catch (error) {
      // The classification only: the error's request config carries the code and client secret.
      this.#log.warn(
        { event: 'google.connect.exchange_failed', userId, ...classifyGoogleError(error) },
        'code exchange failed',
      )
      return 'exchange-failed'
    }
    const granted = (tokens.scope ?? '').split(/\s+/).filter(Boolean)
    if (!tokens.access_token || !granted.some((s) => READ_SCOPES.has(s))) {
      // Nothing is kept, so nothing of this grant should stay alive at Google either.
      await client.revokeToken(tokens.access_token ?? '').catch(() => undefined)
      return 'scope-missing'
    }
    const previous = await this.#storedTokens(userId)
    const stored: StoredTokens = {
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token ?? previous?.refresh_token ?? null,
      expiry_date: tokens.expiry_date ?? null,
    }
    client.setCredentials(tokens)
    const googleEmail = await createDriveApi(
      client,
      this.#google.driveRootUrl,
      DEFAULT_RETRY_POLICY,
    ).accountEmail()
    await this.#repository.saveConnection({
      userId,
      googleEmail,
      scope: granted.join(' '),
      tokens: this.#seal(userId, stored),
    })
    this.#log.info({ event: 'google.connected', userId }, 'Google Drive connected')
    return 'connected'
  }

  /**
   * An OAuth2Client holding this person's tokens, or null when Drive is not connected. Tokens
   * it refreshes are sealed and stored again; `settle()` waits for those writes.
   */
  async authorizedClient(
    userId: string,
  ): Promise<{ auth: OAuth2Client; settle: () => Promise<void> } | null> {
    let tokens = await this.#storedTokens(userId)
    if (!tokens) return null
    const auth = this.#oauthClient()
    auth.setCredentials({
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expiry_date: tokens.expiry_date,
      token_type: 'Bearer',
    })
    let saving: Promise<void> = Promise.resolve()
    auth.on('tokens', (fresh: Credentials) => {
      const current: StoredTokens = {
        access_token: fresh.access_token ?? null,
        refresh_token: fresh.refresh_token ?? tokens?.refresh_token ?? null,
        expiry_date: fresh.expiry_date ?? null,
      }
      tokens = current
      saving = saving
        .then(() => this.#repository.updateTokens(userId, this.#seal(userId, current)))
        .then(
          () => undefined,
          (error: unknown) =>
            this.#log.error({ err: error, userId }, 'storing refreshed Google tokens failed'),
        )
    })
    return { auth, settle: () => saving }
  }

  /**
   * The person disconnects Drive: the grant is revoked at Google (its refresh token, which ends
   * the whole grant; a failure there is logged, the tokens go anyway) and the tokens are deleted
   * here. False when there was no connection.
   */
  async disconnect(userId: string): Promise<boolean> {
    const tokens = await this.#storedTokens(userId)
    if (!tokens) return false
    const token = tokens.refresh_token ?? tokens.access_token
    if (token) {
      await this.#oauthClient()
        .revokeToken(token)
        .catch((error: unknown) =>
          this.#log.warn(
            { event: 'google.revoke_failed', userId, ...classifyGoogleError(error) },
            'revoke failed',
          ),
        )
    }
    await this.#repository.deleteConnection(userId)
    this.#log.info({ event: 'google.disconnected', userId }, 'Google Drive disconnected by its owner')
    return true
  }

  /** Access expired or revoked at Google: the tokens are useless, so they are not kept. */
  async forget(userId: string): Promise<void> {
    await this.#repository.deleteConnection(userId)
    this.#log.info({ event: 'google.disconnected', userId }, 'Google Drive tokens forgotten')
  }
}
