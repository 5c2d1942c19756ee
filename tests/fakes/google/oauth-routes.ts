/**
 * Google's OAuth 2.0 endpoints for a web-server app, at Google's paths: the authorization page
 * (accounts.google.com/o/oauth2/v2/auth) with its consent form, the token endpoint
 * (oauth2.googleapis.com/token: authorization_code with PKCE, refresh_token), revoke, tokeninfo,
 * userinfo, the ID-token keys and the discovery document.
 * https://developers.google.com/identity/protocols/oauth2/web-server
 */
import { createHash } from 'node:crypto'
import {
  authErrorPage,
  CONSENT_DECISION_PATH,
  CONSENT_FIELDS,
  type ConsentPageInput,
  consentPage,
} from './consent-page.ts'
import { type OAuthError, oauthErrors } from './google-errors.ts'
import { readParams, redirect, sendHtml, sendJson } from './http.ts'
import { ID_TOKEN_ISSUER, jwks, pemCerts, signClaims, signIdToken } from './id-token.ts'
import type { Route, RouteContext } from './route-context.ts'
import {
  isBasicScope,
  isValidScope,
  normalizeScope,
  USERINFO_EMAIL,
  USERINFO_PROFILE,
  wantsIdToken,
} from './scopes.ts'
import {
  type AuthCode,
  type ConsentRequest,
  type Grant,
  type OAuthClientConfig,
  randomToken,
} from './store.ts'

export const AUTH_PATH = '/o/oauth2/v2/auth'
export const TOKEN_PATH = '/token'
export const REVOKE_PATH = '/revoke'
export const TOKENINFO_PATH = '/tokeninfo'
export const USERINFO_PATH = '/oauth2/v3/userinfo'
export const PEM_CERTS_PATH = '/oauth2/v1/certs'
export const JWK_CERTS_PATH = '/oauth2/v3/certs'

/** Google answers "Parameter not allowed for this message type" for anything else. */
const AUTH_PARAMS = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
  'login_hint',
  'include_granted_scopes',
  'enable_granular_consent',
  'hd',
  'nonce',
  'authuser',
  'display',
  'response_mode',
  'openid.realm',
])

const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

class AuthPageError extends Error {
  readonly error: string
  readonly code: number
  constructor(error: string, description: string, code = 400) {
    super(description)
    this.error = error
    this.code = code
  }
}

function isRedirectAllowed(client: OAuthClientConfig, uri: string): boolean {
  if (client.redirectUris) return client.redirectUris.includes(uri)
  try {
    const url = new URL(uri)
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && !url.hash
    )
  } catch {
    return false
  }
}

/** Validates the authorization request like Google, in Google's order: client, redirect, the rest. */
function parseAuthRequest(ctx: RouteContext): Omit<ConsentRequest, 'id' | 'createdAt'> {
  const q = ctx.url.searchParams
  for (const key of q.keys()) {
    if (!AUTH_PARAMS.has(key)) {
      throw new AuthPageError('invalid_request', `Parameter not allowed for this message type: ${key}`)
    }
  }
  const clientId = q.get('client_id')
  if (!clientId) throw new AuthPageError('invalid_request', 'Missing required parameter: client_id')
  const client = ctx.store.findClient(clientId)
  if (!client) throw new AuthPageError('invalid_client', 'The OAuth client was not found.', 401)
  const redirectUri = q.get('redirect_uri')
  if (!redirectUri) throw new AuthPageError('invalid_request', 'Missing required parameter: redirect_uri')
  if (!isRedirectAllowed(client, redirectUri)) {
    throw new AuthPageError(
      'redirect_uri_mismatch',
      `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. If you're the app developer, register the redirect URI in the Google Cloud Console. Request details: redirect_uri=${redirectUri}`,
    )
  }
  const responseType = q.get('response_type')
  if (!responseType)
    throw new AuthPageError('invalid_request', 'Required parameter is missing: response_type')
  if (responseType !== 'code') {
    throw new AuthPageError('unsupported_response_type', `Invalid response_type: ${responseType}`)
  }
  const scope = q.get('scope')?.trim()
  if (!scope) throw new AuthPageError('invalid_request', 'Missing required parameter: scope')
  const requested = scope.split(/\s+/)
  const invalid = requested.filter((s) => !isValidScope(s))
  if (invalid.length > 0) {
    throw new AuthPageError(
      'invalid_scope',
      `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`,
    )
  }
  const codeChallenge = q.get('code_challenge') ?? undefined
  const method = q.get('code_challenge_method') ?? (codeChallenge ? 'plain' : undefined)
  if (method !== undefined && !codeChallenge) {
    throw new AuthPageError('invalid_request', 'Missing required parameter: code_challenge')
  }
  if (method !== undefined && method !== 'S256' && method !== 'plain') {
    throw new AuthPageError('invalid_request', `Invalid code_challenge_method: ${method}`)
  }
  if (codeChallenge !== undefined && !PKCE_VALUE.test(codeChallenge)) {
    throw new AuthPageError('invalid_request', 'Invalid code_challenge.')
  }
  const accessType = q.get('access_type') ?? 'online'
  if (accessType !== 'online' && accessType !== 'offline') {
    throw new AuthPageError('invalid_request', `Invalid access_type: ${accessType}`)
  }
  const prompt = (q.get('prompt') ?? '').split(/\s+/).filter(Boolean)
  if (prompt.some((p) => !['none', 'consent', 'select_account'].includes(p))) {
    throw new AuthPageError('invalid_request', `Invalid prompt: ${prompt.join(' ')}`)
  }
  if (prompt.includes('none') && prompt.length > 1) {
    throw new AuthPageError('invalid_request', 'prompt=none cannot be combined with other prompt values')
  }
  const loginHint = q.get('login_hint') ?? undefined
  const state = q.get('state') ?? undefined
  const nonce = q.get('nonce') ?? undefined
  return {
    clientId,
    redirectUri,
    scopes: [...new Set(requested.map(normalizeScope))],
    ...(state === undefined ? {} : { state }),
    ...(codeChallenge === undefined ? {} : { codeChallenge }),
    ...(method === 'S256' || method === 'plain' ? { codeChallengeMethod: method } : {}),
    accessType,
    prompt,
    ...(loginHint === undefined ? {} : { loginHint }),
    includeGrantedScopes: q.get('include_granted_scopes') === 'true',
    ...(nonce === undefined ? {} : { nonce }),
  }
}

function redirectWith(
  ctx: RouteContext,
  redirectUri: string,
  params: Record<string, string | undefined>,
): void {
  const target = new URL(redirectUri)
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) target.searchParams.set(key, value)
  redirect(ctx.res, target.toString())
}

function authorize(ctx: RouteContext): void {
  ctx.store.data.authRequests.push(Object.fromEntries(ctx.url.searchParams))
  let request: Omit<ConsentRequest, 'id' | 'createdAt'>
  try {
    request = parseAuthRequest(ctx)
  } catch (error) {
    if (!(error instanceof AuthPageError)) throw error
    sendHtml(ctx.res, error.code, authErrorPage(error.error, error.message, error.code))
    return
  }
  // The emulator keeps no browser session, so there is never a signed-in user to consent silently.
  if (request.prompt.includes('none')) {
    redirectWith(ctx, request.redirectUri, { error: 'interaction_required', state: request.state })
    return
  }
  const id = randomToken(32)
  ctx.store.data.consentRequests.set(id, { ...request, id, createdAt: ctx.store.now() })
  const client = ctx.store.findClient(request.clientId)
  const hinted = request.loginHint && ctx.store.findAccount(request.loginHint)
  const page: ConsentPageInput = {
    appName: client?.name ?? request.clientId,
    requestId: id,
    scopes: request.scopes,
    accounts: ctx.store.accounts,
    selectedEmail: hinted ? hinted.email : (ctx.store.accounts[0]?.email ?? ''),
  }
  sendHtml(ctx.res, 200, consentPage(page))
}

async function decide(ctx: RouteContext): Promise<void> {
  const form = await readParams(ctx.req)
  const id = form.get(CONSENT_FIELDS.requestId) ?? ''
  const request = ctx.store.data.consentRequests.get(id)
  if (!request || request.createdAt + ctx.store.settings.authCodeLifetimeSeconds * 1000 <= ctx.store.now()) {
    sendHtml(
      ctx.res,
      400,
      authErrorPage('invalid_request', 'This sign-in request expired or was already used.'),
    )
    return
  }
  ctx.store.data.consentRequests.delete(id)
  if (form.get(CONSENT_FIELDS.decision) !== 'allow') {
    redirectWith(ctx, request.redirectUri, { error: 'access_denied', state: request.state })
    return
  }
  const email = form.get(CONSENT_FIELDS.account) ?? request.loginHint ?? ctx.store.accounts[0]?.email ?? ''
  const account = ctx.store.findAccount(email)
  if (!account) {
    sendHtml(ctx.res, 400, authErrorPage('invalid_request', `No emulator account ${email}.`))
    return
  }
  const checked = new Set(form.getAll(CONSENT_FIELDS.scope))
  const granted = form.has(CONSENT_FIELDS.scopesShown)
    ? request.scopes.filter((s) => isBasicScope(s) || checked.has(s))
    : request.scopes
  const code: AuthCode = {
    code: `4/0A${randomToken(70)}`,
    email: account.email,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    scopes: granted,
    accessType: request.accessType,
    prompt: request.prompt,
    includeGrantedScopes: request.includeGrantedScopes,
    ...(request.codeChallenge === undefined ? {} : { codeChallenge: request.codeChallenge }),
    ...(request.codeChallengeMethod === undefined
      ? {}
      : { codeChallengeMethod: request.codeChallengeMethod }),
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    expiresAt: ctx.store.now() + ctx.store.settings.authCodeLifetimeSeconds * 1000,
    used: false,
  }
  ctx.store.data.codes.set(code.code, code)
  redirectWith(ctx, request.redirectUri, {
    state: request.state,
    code: code.code,
    scope: granted.join(' '),
    authuser: '0',
    prompt: 'consent',
  })
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header?.startsWith('Basic ')) return undefined
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon === -1) return undefined
  // RFC 6749 §2.3.1: both halves are form-urlencoded before they are joined.
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) }
}

function authenticateClient(ctx: RouteContext, params: URLSearchParams): OAuthClientConfig | OAuthError {
  const basic = basicCredentials(ctx.req.headers.authorization)
  const clientId = basic?.id ?? params.get('client_id')
  const secret = basic?.secret ?? params.get('client_secret')
  if (!clientId) return oauthErrors.invalidRequest('Could not determine client ID from request.')
  const client = ctx.store.findClient(clientId)
  if (!client) return oauthErrors.clientNotFound()
  if (!secret) return oauthErrors.invalidRequest('client_secret is missing.')
  if (secret !== client.clientSecret) return oauthErrors.badClientSecret()
  return client
}

function verifierMatches(code: AuthCode, verifier: string): boolean {
  if (!PKCE_VALUE.test(verifier)) return false
  if (code.codeChallengeMethod === 'plain') return verifier === code.codeChallenge
  return createHash('sha256').update(verifier).digest('base64url') === code.codeChallenge
}

function tokenResponse(
  ctx: RouteContext,
  grant: Grant,
  extra: { refreshToken?: string; nonce?: string } = {},
) {
  const { refreshToken, nonce } = extra
  const accessToken = ctx.store.issueAccessToken(grant)
  const account = ctx.store.accountOf(grant.email)
  const lifetime = ctx.store.settings.accessTokenLifetimeSeconds
  const idToken = wantsIdToken(grant.scopes)
    ? signIdToken(ctx.signingKey, {
        aud: grant.clientId,
        sub: account.sub,
        ...(grant.scopes.includes(USERINFO_EMAIL)
          ? { email: account.email, emailVerified: account.emailVerified }
          : {}),
        ...(grant.scopes.includes(USERINFO_PROFILE) ? { name: account.name } : {}),
        ...(nonce === undefined ? {} : { nonce }),
        accessToken: accessToken.token,
        lifetimeSeconds: 3600,
        now: ctx.store.now(),
      })
    : undefined
  const forge = idToken === undefined ? undefined : ctx.store.takeIdTokenForger()
  const answered =
    forge && idToken
      ? forge({
          idToken,
          claims: JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()),
          sign: (claims) => signClaims(ctx.signingKey, claims),
        })
      : idToken
  return {
    access_token: accessToken.token,
    expires_in: lifetime,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    scope: grant.scopes.join(' '),
    token_type: 'Bearer',
    ...(answered === undefined ? {} : { id_token: answered }),
  }
}

/**
 * Google hands out a refresh token only for access_type=offline, and only the first time a user
 * consents to a client, unless prompt=consent asks again: the classic "where is my refresh token"
 * trap. Without one, the new access token joins the user's existing grant.
 */
function grantFor(ctx: RouteContext, code: AuthCode): { grant: Grant; refreshToken?: string } {
  const grants = ctx.store.data.grants
  const existing = [...grants.values()].find(
    (g) =>
      !g.revoked && g.email === code.email && g.clientId === code.clientId && g.refreshToken !== undefined,
  )
  if (code.accessType === 'offline' && (!existing || code.prompt.includes('consent'))) {
    const scopes =
      code.includeGrantedScopes && existing ? [...new Set([...existing.scopes, ...code.scopes])] : code.scopes
    const refreshToken = `1//0${randomToken(100)}`
    const grant: Grant = {
      id: randomToken(16),
      clientId: code.clientId,
      email: code.email,
      scopes,
      refreshToken,
      revoked: false,
    }
    grants.set(grant.id, grant)
    return { grant, refreshToken }
  }
  if (existing) {
    existing.scopes = [...new Set([...existing.scopes, ...code.scopes])]
    return { grant: existing }
  }
  const grant: Grant = {
    id: randomToken(16),
    clientId: code.clientId,
    email: code.email,
    scopes: code.scopes,
    revoked: false,
  }
  grants.set(grant.id, grant)
  return { grant }
}

type JsonReply = { status: number; body: unknown }

function exchangeCode(ctx: RouteContext, client: OAuthClientConfig, params: URLSearchParams): JsonReply {
  const value = params.get('code')
  if (!value) return oauthErrors.invalidRequest('Missing required parameter: code')
  const code = ctx.store.data.codes.get(value)
  if (!code || code.used || code.expiresAt <= ctx.store.now() || code.clientId !== client.clientId) {
    return oauthErrors.invalidGrant()
  }
  // A code is spent by any attempt that reaches it, even a failed one.
  code.used = true
  const redirectUri = params.get('redirect_uri')
  if (!redirectUri) return oauthErrors.invalidRequest('Missing required parameter: redirect_uri')
  if (redirectUri !== code.redirectUri) return oauthErrors.redirectUriMismatch()
  if (code.codeChallenge !== undefined) {
    const verifier = params.get('code_verifier')
    if (!verifier) return oauthErrors.invalidGrant('Missing code verifier.')
    if (!verifierMatches(code, verifier)) return oauthErrors.invalidGrant()
  }
  ctx.setAccount(code.email)
  const { grant, refreshToken } = grantFor(ctx, code)
  const body = tokenResponse(ctx, grant, {
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(code.nonce === undefined ? {} : { nonce: code.nonce }),
  })
  return { status: 200, body }
}

function refresh(ctx: RouteContext, client: OAuthClientConfig, params: URLSearchParams): JsonReply {
  const value = params.get('refresh_token')
  if (!value) return oauthErrors.invalidRequest('Missing required parameter: refresh_token')
  const grant = [...ctx.store.data.grants.values()].find((g) => g.refreshToken === value)
  if (!grant || grant.revoked) return oauthErrors.refreshTokenRevoked()
  if (grant.clientId !== client.clientId) return oauthErrors.invalidGrant('Unauthorized')
  ctx.setAccount(grant.email)
  return { status: 200, body: tokenResponse(ctx, grant) }
}

function tokenReply(ctx: RouteContext, params: URLSearchParams): JsonReply {
  const client = authenticateClient(ctx, params)
  if ('status' in client) return client
  const grantType = params.get('grant_type')
  if (!grantType) return oauthErrors.invalidRequest('Missing required parameter: grant_type')
  if (grantType === 'authorization_code') return exchangeCode(ctx, client, params)
  if (grantType === 'refresh_token') return refresh(ctx, client, params)
  return oauthErrors.unsupportedGrantType(grantType)
}

async function token(ctx: RouteContext): Promise<void> {
  const params = await readParams(ctx.req)
  const grantType = params.get('grant_type')
  ctx.setEndpoint(
    grantType === 'authorization_code' || grantType === 'refresh_token'
      ? `token.${grantType}`
      : 'token.invalid',
  )
  const reply = tokenReply(ctx, params)
  sendJson(ctx.res, reply.status, reply.body)
}

/** Revoking either token of a grant ends the whole grant (refresh token and access tokens). */
function revokeReply(ctx: RouteContext, value: string | null): JsonReply {
  if (!value) return oauthErrors.invalidRequest('Missing required parameter: token')
  const { grants, accessTokens } = ctx.store.data
  const viaAccess = accessTokens.get(value)
  const grant = viaAccess
    ? grants.get(viaAccess.grantId)
    : [...grants.values()].find((g) => g.refreshToken === value)
  if (!grant || grant.revoked) return oauthErrors.invalidToken()
  ctx.setAccount(grant.email)
  ctx.store.revokeGrant(grant)
  return { status: 200, body: {} }
}

async function revoke(ctx: RouteContext): Promise<void> {
  const body = ctx.req.method === 'POST' ? await readParams(ctx.req) : new URLSearchParams()
  const reply = revokeReply(ctx, ctx.url.searchParams.get('token') ?? body.get('token'))
  sendJson(ctx.res, reply.status, reply.body)
}

function bearer(ctx: RouteContext): string | undefined {
  const header = ctx.req.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined
}

async function tokenInfo(ctx: RouteContext): Promise<void> {
  const body = ctx.req.method === 'POST' ? await readParams(ctx.req) : new URLSearchParams()
  const value = ctx.url.searchParams.get('access_token') ?? body.get('access_token') ?? bearer(ctx)
  const found = value ? ctx.store.grantOfToken(value) : undefined
  if (!found) {
    const error = oauthErrors.tokenInfoInvalid()
    sendJson(ctx.res, error.status, error.body)
    return
  }
  const { grant, accessToken } = found
  const account = ctx.store.accountOf(grant.email)
  ctx.setAccount(account.email)
  const expiresIn = Math.max(0, Math.floor((accessToken.expiresAt - ctx.store.now()) / 1000))
  sendJson(ctx.res, 200, {
    azp: grant.clientId,
    aud: grant.clientId,
    sub: account.sub,
    scope: grant.scopes.join(' '),
    exp: String(Math.floor(accessToken.expiresAt / 1000)),
    expires_in: String(expiresIn),
    ...(grant.scopes.includes(USERINFO_EMAIL)
      ? { email: account.email, email_verified: String(account.emailVerified) }
      : {}),
    access_type: grant.refreshToken ? 'offline' : 'online',
  })
}

function userInfo(ctx: RouteContext): void {
  const value = bearer(ctx) ?? ctx.url.searchParams.get('access_token') ?? undefined
  const found = value ? ctx.store.grantOfToken(value) : undefined
  if (!found) {
    sendJson(
      ctx.res,
      401,
      { error: 'invalid_request', error_description: 'Invalid Credentials' },
      { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    )
    return
  }
  const { grant } = found
  const account = ctx.store.accountOf(grant.email)
  ctx.setAccount(account.email)
  const [given = account.name, ...family] = account.name.split(' ')
  sendJson(ctx.res, 200, {
    sub: account.sub,
    ...(grant.scopes.includes(USERINFO_PROFILE)
      ? {
          name: account.name,
          given_name: given,
          family_name: family.join(' '),
          picture: 'https://lh3.googleusercontent.com/a/default-user=s96-c',
        }
      : {}),
    ...(grant.scopes.includes(USERINFO_EMAIL)
      ? { email: account.email, email_verified: account.emailVerified }
      : {}),
  })
}

const CERTS_CACHE = { 'cache-control': 'public, max-age=21600, must-revalidate, no-transform' }

function discovery(ctx: RouteContext): void {
  const base = ctx.baseUrl
  sendJson(ctx.res, 200, {
    issuer: ID_TOKEN_ISSUER,
    authorization_endpoint: `${base}${AUTH_PATH}`,
    token_endpoint: `${base}${TOKEN_PATH}`,
    userinfo_endpoint: `${base}${USERINFO_PATH}`,
    revocation_endpoint: `${base}${REVOKE_PATH}`,
    jwks_uri: `${base}${JWK_CERTS_PATH}`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid', 'email', 'profile'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    code_challenge_methods_supported: ['plain', 'S256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
  })
}

export const oauthRoutes: readonly Route[] = [
  { methods: ['GET'], pattern: /^\/o\/oauth2\/v2\/auth$/, endpoint: 'auth', handle: authorize },
  {
    methods: ['POST'],
    pattern: new RegExp(`^${CONSENT_DECISION_PATH}$`),
    endpoint: 'auth.decision',
    handle: decide,
  },
  { methods: ['POST'], pattern: /^\/(?:token|oauth2\/v4\/token)$/, endpoint: 'token.invalid', handle: token },
  {
    methods: ['GET', 'POST'],
    pattern: /^\/(?:revoke|o\/oauth2\/revoke)$/,
    endpoint: 'revoke',
    handle: revoke,
  },
  {
    methods: ['GET', 'POST'],
    pattern: /^\/(?:tokeninfo|oauth2\/v3\/tokeninfo)$/,
    endpoint: 'tokeninfo',
    handle: tokenInfo,
  },
  {
    methods: ['GET', 'POST'],
    pattern: /^\/(?:oauth2\/v3\/userinfo|v1\/userinfo)$/,
    endpoint: 'userinfo',
    handle: userInfo,
  },
  {
    methods: ['GET'],
    pattern: /^\/oauth2\/v1\/certs$/,
    endpoint: 'certs',
    handle: (ctx) => sendJson(ctx.res, 200, pemCerts(ctx.signingKey), CERTS_CACHE),
  },
  {
    methods: ['GET'],
    pattern: /^\/oauth2\/v3\/certs$/,
    endpoint: 'certs',
    handle: (ctx) => sendJson(ctx.res, 200, jwks(ctx.signingKey), CERTS_CACHE),
  },
  {
    methods: ['GET'],
    pattern: /^\/\.well-known\/openid-configuration$/,
    endpoint: 'openid-configuration',
    handle: discovery,
  },
]
