/**
 * Serves the built SPA (Vite's dist/) and answers whatever no route matched: unknown /api paths
 * get the JSON 404 envelope; any other GET is a client-side route and gets index.html. Hashed
 * files under /assets are cached for a year; index.html is revalidated every time so a deploy
 * shows at once. The build writes .br and .gz siblings (build/precompress.ts); the one the
 * request accepts is sent with its Content-Encoding and `Vary: Accept-Encoding`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isApiUrl } from './paths.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
/**
 * Pages search engines must not index, whoever links to them: a shared conversation (`/s/{token}`,
 * D73) is public to anyone with its link, not to the world. The page says so in a meta tag too.
 */
const NOT_INDEXED = /^\/s\//
export const NO_INDEX = 'noindex, nofollow, noarchive'
export const NOT_BUILT_MESSAGE =
  'The DocChat web app has not been built yet. Run `npm run build`, then reload this page.\n'

export const spaPlugin = fp<{ distDir: string }>(
  async (app, { distDir }) => {
    const built = existsSync(join(distDir, 'index.html'))
    if (built) {
      await app.register(fastifyStatic, {
        root: distDir,
        preCompressed: true,
        cacheControl: false,
        setHeaders(reply, path) {
          const hashed = path.startsWith(join(distDir, 'assets'))
          reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache')
        },
      })
    }

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?', 1)[0] ?? '/'
      const isRead = request.method === 'GET' || request.method === 'HEAD'
      if (isApiUrl(path) || !isRead) {
        return reply
          .code(404)
          .send({ success: false, message: `No such endpoint: ${request.method} ${path}` })
      }
      if (!built) return reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE)
      // A missing hashed asset is a stale page asking for an old build: HTML in its place would only
      // fail to parse as a script.
      if (path.startsWith('/assets/'))
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
      if (NOT_INDEXED.test(path)) reply.header('x-robots-tag', NO_INDEX)
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    })
  },
  { name: 'spa' },
)
