/**
 * Checks every request passes before any route runs:
 * - a state-changing request from another site is refused (CSRF). Browsers say where a request
 *   comes from in Sec-Fetch-Site; older ones only in Origin. A request with neither is not from a
 *   browser page (curl, a server, a test) and cannot carry a victim's cookies by accident.
 * - JSON routes take only JSON: Fastify's text/plain parser is removed, because a cross-site
 *   <form> can send text/plain without a CORS preflight.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { HttpError } from '../../http-errors.ts'
import { sharedPlugin } from '../shared-plugin.ts'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const TRUSTED_FETCH_SITES = new Set(['same-origin', 'none'])
export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed.'

export const requestGuardsPlugin = sharedPlugin<{ publicOrigin: string }>(
  'request-guards',
  async (app, opts) => {
    app.removeContentTypeParser('text/plain')

    function isSameSite(request: FastifyRequest): boolean {
      const fetchSite = request.headers['sec-fetch-site']
      if (fetchSite !== undefined) return TRUSTED_FETCH_SITES.has(fetchSite)
      const origin = request.headers.origin
      return origin === undefined || origin === opts.publicOrigin
    }

    // Callback style: this runs on every request, and skips a promise per call.
    app.addHook(
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (STATE_CHANGING.has(request.method) && !isSameSite(request)) {
          done(new HttpError(403, CROSS_SITE_MESSAGE))
          return
        }
        done()
      },
    )
  },
)
