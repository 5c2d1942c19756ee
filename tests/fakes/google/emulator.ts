/**
 * A Google stand-in on 127.0.0.1 for the parts DocChat uses: OAuth 2.0 for web-server apps (consent
 * page, token, revoke, tokeninfo, userinfo, ID-token keys) and a Drive v3 read subset, at Google's
 * own paths, so the real google-auth-library and @googleapis/drive clients talk to it unchanged
 * once their origins point here (see `oauthEndpoints` and `driveRootUrl`). Tests steer and observe
 * it through `state`; the standalone server (main.ts) also offers /__emulator/ over HTTP.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { controlRoutes } from './control-routes.ts'
import { driveChangeRoutes } from './drive-changes.ts'
import { driveRoutes } from './drive-routes.ts'
import { driveUpdateRoutes } from './drive-update.ts'
import { driveUploadRoutes } from './drive-upload.ts'
import { buildFixtureFiles } from './fixtures.ts'
import { driveErrors } from './google-errors.ts'
import { BodyTooLargeError, sendJson } from './http.ts'
import { createSigningKey } from './id-token.ts'
import {
  AUTH_PATH,
  JWK_CERTS_PATH,
  oauthRoutes,
  PEM_CERTS_PATH,
  REVOKE_PATH,
  TOKEN_PATH,
  TOKENINFO_PATH,
} from './oauth-routes.ts'
import type { Route, RouteContext } from './route-context.ts'
import {
  createStore,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type EmulatorStore,
  type OAuthClientConfig,
  type RecordedRequest,
} from './store.ts'

export type GoogleEmulatorOptions = {
  /** 0 (default) picks a free port. */
  port?: number
  /** Interface to listen on; default 127.0.0.1. */
  host?: string
  /** Registered OAuth clients; default one: DEFAULT_CLIENT_ID / DEFAULT_CLIENT_SECRET, any loopback redirect. */
  clients?: readonly OAuthClientConfig[]
  /** The most files one files.list page holds, whatever pageSize asks (default 10). */
  maxPageSize?: number
  /** expires_in of access tokens (default 3599). */
  accessTokenLifetimeSeconds?: number
  /** How long codes and consent pages stay usable (default 600). */
  authCodeLifetimeSeconds?: number
  /** false: the accounts exist but every Drive starts empty (default true: the fixtures). */
  fixtures?: boolean
  /** Serve /__emulator/ (default true). */
  controlRoutes?: boolean
  /** Called with one line per request (method, path, status, ms). */
  log?: (line: string) => void
}

export type GoogleEmulator = {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string
  state: EmulatorStore
  /** The default client's credentials (the first of `clients`). */
  clientId: string
  clientSecret: string
  /** `new OAuth2Client({ clientId, clientSecret, redirectUri, endpoints: emulator.oauthEndpoints })`. */
  oauthEndpoints: {
    oauth2AuthBaseUrl: string
    oauth2TokenUrl: string
    oauth2RevokeUrl: string
    tokenInfoUrl: string
    oauth2FederatedSignonPemCertsUrl: string
    oauth2FederatedSignonJwkCertsUrl: string
  }
  /** `drive({ version: 'v3', auth, rootUrl: emulator.driveRootUrl })`: the url with a trailing slash. */
  driveRootUrl: string
  close(): Promise<void>
}

/** The route for this method and path; `allowed` lists the methods of a path matched by method alone. */
function matchRoute(routes: readonly Route[], method: string, path: string) {
  const allowed: string[] = []
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (!match) continue
    if (route.methods.includes(method)) {
      return { route, params: match.slice(1).map((p) => decodeURIComponent(p ?? '')), allowed }
    }
    allowed.push(...route.methods)
  }
  return { route: undefined, params: [], allowed }
}

export async function createGoogleEmulator(options: GoogleEmulatorOptions = {}): Promise<GoogleEmulator> {
  const state = createStore({
    ...(options.clients ? { clients: options.clients } : {}),
    ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }),
    ...(options.accessTokenLifetimeSeconds === undefined
      ? {}
      : { accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds }),
    ...(options.authCodeLifetimeSeconds === undefined
      ? {}
      : { authCodeLifetimeSeconds: options.authCodeLifetimeSeconds }),
    seedFiles: options.fixtures === false ? [] : await buildFixtureFiles(),
  })
  const signingKey = createSigningKey()
  const routes = [
    ...oauthRoutes,
    ...driveRoutes,
    ...driveUploadRoutes,
    ...driveUpdateRoutes,
    ...driveChangeRoutes,
    ...(options.controlRoutes === false ? [] : controlRoutes),
  ]
  let baseUrl = ''

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now()
    const url = new URL(req.url ?? '/', baseUrl)
    // googleapis joins rootUrl + '/drive/v3/…', so a rootUrl ending in '/' gives '//drive'.
    const path = url.pathname.replace(/\/{2,}/g, '/')
    const method = req.method ?? 'GET'
    const found = matchRoute(routes, method, path)
    const record: RecordedRequest = {
      endpoint: found.route?.endpoint ?? 'unknown',
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      at: new Date(state.now()).toISOString(),
    }
    const isControl = record.endpoint === 'control'
    // Logged before answering, so a test that awaited its call always sees the request counted.
    if (!isControl) state.requests.push(record)
    res.once('close', () => {
      record.status = res.statusCode
      options.log?.(`${record.method} ${path} ${res.statusCode} ${Date.now() - started}ms ${record.endpoint}`)
    })
    if (!isControl && state.settings.latencyMs > 0) await sleep(state.settings.latencyMs)

    if (!found.route && found.allowed.length > 0) {
      res.writeHead(405, { allow: found.allowed.join(', '), 'content-type': 'text/plain' })
      res.end(`Method ${method} not allowed on ${path}`)
      return
    }
    if (!found.route) {
      const error = driveErrors.notImplemented(path)
      sendJson(res, error.status, error.body)
      return
    }
    const ctx: RouteContext = {
      req,
      res,
      url,
      params: found.params,
      store: state,
      baseUrl,
      signingKey,
      setEndpoint: (endpoint) => {
        record.endpoint = endpoint
      },
      setAccount: (email) => {
        record.account = email
      },
    }
    await found.route.handle(ctx)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { error: { code: 413, message: 'Request Entity Too Large' } })
      } else if (error instanceof SyntaxError || error instanceof URIError) {
        sendJson(res, 400, { error: { code: 400, message: `Bad Request: ${error.message}` } })
      } else {
        console.error('[google-emulator]', error)
        sendJson(res, 500, { error: { code: 500, message: 'Internal Error', errors: [] } })
      }
    })
  })
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const host =
    !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host
  baseUrl = `http://${host}:${port}`

  const [defaultClient] = state.clients
  return {
    url: baseUrl,
    state,
    clientId: defaultClient?.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: defaultClient?.clientSecret ?? DEFAULT_CLIENT_SECRET,
    oauthEndpoints: {
      oauth2AuthBaseUrl: `${baseUrl}${AUTH_PATH}`,
      oauth2TokenUrl: `${baseUrl}${TOKEN_PATH}`,
      oauth2RevokeUrl: `${baseUrl}${REVOKE_PATH}`,
      tokenInfoUrl: `${baseUrl}${TOKENINFO_PATH}`,
      oauth2FederatedSignonPemCertsUrl: `${baseUrl}${PEM_CERTS_PATH}`,
      oauth2FederatedSignonJwkCertsUrl: `${baseUrl}${JWK_CERTS_PATH}`,
    },
    driveRootUrl: `${baseUrl}/`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
    },
  }
}
