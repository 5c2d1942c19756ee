/**
 * Checks requests pass before a route runs:
 * - a state-changing request from another site is refused (CSRF). Browsers say where a request
 *   comes from in Sec-Fetch-Site; older ones only in Origin. A request with neither is not from a
 *   browser page (curl, a server, a test) and cannot carry a victim's cookies by accident.
 *   `defineRoute` puts the check (`app.refuseCrossSite`) first on every POST/PUT/PATCH/DELETE
 *   route (before its rate limits count the attempt), so reads, the hot path, run no hook for it;
 *   a state-changing route declared any other way stops the app from starting.
 * - a request whose address carries a personal API key is refused on every route (D124,
 *   keys-in-urls.ts): keys travel in the Authorization header only.
 * - JSON routes take only JSON: Fastify's text/plain parser is removed, because a cross-site
 *   <form> can send text/plain without a CORS preflight.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { STATE_CHANGING_METHODS } from './define-route.ts'
import { API_KEY_IN_ADDRESS, carriesApiKey } from './keys-in-urls.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 403 for a request another site's page sent. */
    refuseCrossSite: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads no cookie: it is authorised only by an Authorization header (an API key,
     * D130), which a cross-site form cannot send, so it needs no cross-site guard (and CORS, not
     * this guard, says which pages may call it).
     */
    bearerOnly?: boolean
  }
}

const TRUSTED_FETCH_SITES = new Set(['same-origin', 'none'])
export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed.'

export const requestGuardsPlugin = fp<{ publicOrigin: string }>(
  async (app, opts) => {
    app.removeContentTypeParser('text/plain')

    // On every route, registered before any: the key is refused before any route logic sees it.
    app.addHook('onRequest', (request, _reply, done) => {
      done(carriesApiKey(request.url) ? httpErrors.badRequest(API_KEY_IN_ADDRESS) : undefined)
    })

    function isSameSite(request: FastifyRequest): boolean {
      const fetchSite = request.headers['sec-fetch-site']
      if (fetchSite !== undefined) return TRUSTED_FETCH_SITES.has(fetchSite)
      const origin = request.headers.origin
      return origin === undefined || origin === opts.publicOrigin
    }

    // Callback style: skips a promise per call.
    app.decorate(
      'refuseCrossSite',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
        done(isSameSite(request) ? undefined : httpErrors.forbidden(CROSS_SITE_MESSAGE))
      },
    )

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      if (!methods.some((method) => STATE_CHANGING_METHODS.has(method))) return
      if (route.config?.declaredByDefineRoute !== true && route.config?.bearerOnly !== true) {
        throw new Error(
          `${methods.join(',')} ${route.url}: declare state-changing routes with defineRoute (it adds the cross-site guard)`,
        )
      }
    })
  },
  { name: 'request-guards' },
)
