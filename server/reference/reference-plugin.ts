/**
 * The API's reference (issue 38, D127): `GET /api/v1/openapi.json`, the OpenAPI document
 * (public, cacheable), and `GET /api/docs`, a page that renders it with Scalar's standalone
 * bundle. The bundle is served from our own route and loaded on that page only, under a CSP
 * that allows exactly it as a script.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import fp from 'fastify-plugin'
import { API_DOCS_PATH, openApiEndpoint } from '#contracts/reference.ts'
import { defineRoute } from '../http/define-route.ts'
import { buildOpenApiDocument } from './openapi-document.ts'

export const SCALAR_SCRIPT_PATH = `${API_DOCS_PATH}/scalar.js`
/** Both change only with a deploy; an hour keeps a reloaded page quick without a stale one for long. */
const PUBLIC_CACHE = 'public, max-age=3600'

/** Scripts from the bundle's route only; Scalar writes its styles inline and fetches the document. */
export const API_DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self'`,
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The page: Scalar's HTML API (`<script id="api-reference" data-url>`, read by the bundle), with
 * no inline script to allow, no fonts from Scalar's CDN, and its telemetry and AI agent off (the
 * CSP would refuse their calls anyway).
 */
export function apiDocsPage(specUrl: string): string {
  const configuration = JSON.stringify({
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    agent: { disabled: true },
  }).replaceAll('"', '&quot;')
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>DocChat API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="${specUrl}" data-configuration="${configuration}"></script>
    <script src="${SCALAR_SCRIPT_PATH}"></script>
  </body>
</html>
`
}

/** The standalone bundle of the installed @scalar/api-reference (its exports hide the file's path). */
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference')
  let dir = dirname(entry)
  while (!dir.endsWith('api-reference')) dir = dirname(dir)
  return join(dir, 'dist', 'browser', 'standalone.js')
}

/** The bundle (4.9 MB) and its gzip (1.4 MB), read and packed once, on the first ask. */
async function loadBundle(): Promise<{ identity: Buffer; gzip: Buffer }> {
  const identity = await readFile(scalarBundlePath())
  return { identity, gzip: await promisify(gzip)(identity) }
}

async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
  return String(manifest.version)
}

export const referencePlugin = fp(
  async (app) => {
    const version = await packageVersion()
    let document: ReturnType<typeof buildOpenApiDocument> | undefined
    defineRoute(app, openApiEndpoint, {
      auth: 'public',
      handler({ reply }) {
        document ??= buildOpenApiDocument(version)
        reply.header('cache-control', PUBLIC_CACHE)
        return document as never
      },
    })

    const page = apiDocsPage(openApiEndpoint.path)
    app.get(API_DOCS_PATH, async (_request, reply) =>
      reply
        .header('content-security-policy', API_DOCS_CSP)
        .header('cache-control', PUBLIC_CACHE)
        .type('text/html; charset=utf-8')
        .send(page),
    )

    let bundle: ReturnType<typeof loadBundle> | undefined
    app.get(SCALAR_SCRIPT_PATH, async (request, reply) => {
      bundle ??= loadBundle()
      const file = await bundle
      reply
        .header('cache-control', PUBLIC_CACHE)
        .header('vary', 'Accept-Encoding')
        .type('text/javascript; charset=utf-8')
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(file.gzip)
      return reply.send(file.identity)
    })
  },
  { name: 'reference', dependencies: ['security-headers'] },
)
