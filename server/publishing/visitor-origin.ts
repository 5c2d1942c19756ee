/**
 * Which pages may make the visitor calls (issue 37, D118): our own only. The public page and the
 * widget's iframe are served by us, so their calls are same-origin; an allowed site never calls
 * directly, it frames /embed/{publicId}, and the browser holds it to the allowed-sites list
 * through that page's `frame-ancestors`. So a call whose `Origin` is another site's, or that a
 * browser marks `Sec-Fetch-Site: cross-site`/`same-site`, is another page's script calling
 * directly, and is refused, allowed site or not. A call with neither header is not from a
 * browser page (curl, a server): Origin is a claim anyone can make, so what costs money is
 * bounded by the budgets whatever the headers say.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ForeignOrigin } from './publishing-errors.ts'

const OWN_FETCH_SITES = new Set(['same-origin', 'none'])

export function isOwnPage(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin
  if (origin !== undefined && origin !== publicOrigin) return false
  const site = request.headers['sec-fetch-site']
  return site === undefined || OWN_FETCH_SITES.has(site)
}

/** onRequest hook for the visitor calls: 403 with a sentence for another page's script. */
export function refuseForeignPages(publicOrigin: string) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    done(isOwnPage(request, publicOrigin) ? undefined : new ForeignOrigin())
  }
}
