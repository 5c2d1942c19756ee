/**
 * Security headers on every response, as @fastify/helmet computes them, in two sets:
 * - pages (the SPA and its files): helmet's full set with a CSP the built Vite app runs under:
 *   scripts from our origin only; inline styles allowed because Panda and React style attributes
 *   need them.
 * - /api responses (JSON, never rendered): the short set OWASP's REST cheat sheet lists:
 *   `default-src 'none'` CSP, nosniff, frame DENY, no referrer, same-origin resources, and
 *   `Cache-Control: no-store`, since they carry personal data.
 * HSTS and upgrade-insecure-requests only when served over https (they break http://localhost).
 * Pages use COOP `same-origin-allow-popups`, not `same-origin`: the Drive connect window the app
 * opens must keep its `window.opener` through Google's pages to report back. The connect window's
 * own pages (under /api) set a per-response nonce CSP instead (server/drive/connect-pages.ts).
 *
 * @fastify/helmet 13 rebuilds helmet's middleware on every request, which halved the throughput
 * of the whole API in bench/http.ts. Our headers are the same for every response, so helmet
 * computes them once, at start, on a scratch instance, and one hook sets the right constant set.
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import Fastify, { type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { isApiUrl } from './paths.ts'

const HSTS = { maxAge: 180 * 24 * 60 * 60, includeSubDomains: true }

export function pageHelmetOptions(https: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? HSTS : false,
    // The Drive connect window (product §7) reports back through window.opener; 'same-origin' would
    // sever that link as soon as the window visits Google. This keeps it for windows the app opens.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  }
}

export function apiHelmetOptions(https: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    hsts: https ? HSTS : false,
    // Meaningful for documents only.
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
  }
}

/** Headers of the scratch response that are not helmet's. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type'])

/** The headers helmet sets for `options`, read from one request to a scratch instance. */
async function computeHelmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const scratch = Fastify({ logger: false })
  await scratch.register(helmet, options)
  scratch.get('/', async (_request, reply) => reply.code(204).send())
  try {
    const response = await scratch.inject({ method: 'GET', url: '/' })
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers)) {
      if (typeof value === 'string' && !PER_RESPONSE.has(name)) headers[name] = value
    }
    return headers
  } finally {
    await scratch.close()
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The constant header set for `url` (API or page), for answers sent outside the hooks. */
    securityHeadersFor: (url: string) => Record<string, string>
  }
}

export const securityHeadersPlugin = fp<{ https: boolean }>(
  async (app, opts) => {
    const pageHeaders = await computeHelmetHeaders(pageHelmetOptions(opts.https))
    const apiHeaders = {
      ...(await computeHelmetHeaders(apiHelmetOptions(opts.https))),
      'cache-control': 'no-store',
    }
    app.decorate('securityHeadersFor', (url: string) => (isApiUrl(url) ? apiHeaders : pageHeaders))
    // Callback style: this runs on every request, and skips a promise per call.
    app.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        reply.headers(isApiUrl(request.url) ? apiHeaders : pageHeaders)
        done()
      },
    )
  },
  { name: 'security-headers' },
)
