/**
 * The pages of a published assistant (issue 37, D118), from the build: `/a/{publicId}`, the public
 * page, and `/embed/{publicId}`, the widget's iframe chat (one HTML, dist/public.html, that reads
 * its mode and public id from the address), and `/embed.js`, the loader a host page includes.
 * - /a/: 404 when unpublished or its public page is off; `X-Robots-Tag: noindex` unless the owner
 *   allows indexing; never framed (the pages' `frame-ancestors 'none'`).
 * - /embed/: framed only by the allowed sites: its CSP's `frame-ancestors` lists exactly them
 *   (`'none'` for an empty list) and it sends no X-Frame-Options, which could only say DENY or
 *   SAMEORIGIN; never indexed.
 * - /embed.js: any site may load it (`Cross-Origin-Resource-Policy: cross-origin`, CORS `*`);
 *   cached briefly, since its address has no hash.
 * Unknown, unpublished and deleted public ids answer one 404 alike. The dashboard's pages keep
 * every header of security-headers.ts, `frame-ancestors 'none'` included.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { builtFile } from '../http/built-file.ts'
import { NO_INDEX } from '../http/spa.ts'
import { ASSISTANT_UNAVAILABLE, AssistantUnavailable } from './publishing-errors.ts'
import type { PublishedAssistant } from './publishing-repository.ts'

export const PUBLIC_PAGE_FILE = 'public.html'
export const EMBED_SCRIPT_FILE = 'embed.js'
export const EMBED_SCRIPT_CACHE = 'public, max-age=300'

/**
 * The owner's proof of work (altcha) solves in workers it starts from `blob:` addresses of its
 * own code; the public pages allow those, the dashboard's pages do not need them.
 */
export const PUBLIC_WORKER_SRC = "worker-src 'self' blob:"

/** `csp` with the directive named like `directive` replaced by it (or added). */
function withDirective(csp: string, directive: string): string {
  const name = directive.split(' ')[0] ?? directive
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && d.split(' ')[0] !== name)
  return [...directives, directive].join(';')
}

/** The page CSP with its `frame-ancestors` replaced by `sources` (`'none'` when empty). */
export function withFrameAncestors(csp: string, sources: readonly string[]): string {
  return withDirective(csp, `frame-ancestors ${sources.length > 0 ? sources.join(' ') : "'none'"}`)
}

export const publicPages: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const page = builtFile(distDir, PUBLIC_PAGE_FILE, 'text/html; charset=utf-8')
  const loader = builtFile(distDir, EMBED_SCRIPT_FILE, 'text/javascript; charset=utf-8')
  const pageCsp = withDirective(
    app.securityHeadersFor('/')['content-security-policy'] ?? '',
    PUBLIC_WORKER_SRC,
  )

  const unavailable = (reply: FastifyReply) =>
    reply
      .code(404)
      .header('x-robots-tag', NO_INDEX)
      .type('text/plain; charset=utf-8')
      .send(`${ASSISTANT_UNAVAILABLE}\n`)

  const published = async (publicId: string): Promise<PublishedAssistant | null> =>
    publicId.length <= 64
      ? app.publishing.published(publicId).catch((error: unknown) => {
          if (error instanceof AssistantUnavailable) return null
          throw error
        })
      : null

  app.get<{ Params: { publicId: string } }>('/a/:publicId', async (request, reply) => {
    const a = await published(request.params.publicId)
    if (!a?.publicPage) return unavailable(reply)
    if (!a.allowIndexing) reply.header('x-robots-tag', NO_INDEX)
    reply.header('content-security-policy', pageCsp)
    return page(request, reply.header('cache-control', 'no-cache'))
  })

  app.get<{ Params: { publicId: string } }>('/embed/:publicId', async (request, reply) => {
    const a = await published(request.params.publicId)
    if (!a) return unavailable(reply)
    reply.removeHeader('x-frame-options')
    reply.header('content-security-policy', withFrameAncestors(pageCsp, a.allowedOrigins))
    reply.header('cross-origin-resource-policy', 'cross-origin')
    reply.header('x-robots-tag', NO_INDEX)
    return page(request, reply.header('cache-control', 'no-cache'))
  })

  app.get('/embed.js', async (request, reply) => {
    reply.header('access-control-allow-origin', '*')
    reply.header('cross-origin-resource-policy', 'cross-origin')
    return loader(request, reply.header('cache-control', EMBED_SCRIPT_CACHE))
  })
}
