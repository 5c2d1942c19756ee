/**
 * files.create with content, as the Drive clients send it: `POST /upload/drive/v3/files
 * ?uploadType=multipart` with a `multipart/related` body (the JSON metadata part, then the media
 * part with its own content type). Writing needs the `drive` or `drive.file` scope (drive.readonly
 * answers 403 insufficientPermissions, as at Google); the new file lands in the caller's My Drive
 * (or the folder named in `parents`), so listings and the change feed show it.
 * https://developers.google.com/workspace/drive/api/guides/manage-uploads#multipart
 */
import { applySelection, DEFAULT_FILE_FIELDS, FILE_SCHEMA } from './drive-fields.ts'
import { authorize, selection, sendDriveError } from './drive-routes.ts'
import { driveErrors } from './google-errors.ts'
import { BodyTooLargeError, readBody, sendJson } from './http.ts'
import type { Route, RouteContext } from './route-context.ts'
import { canWrite } from './scopes.ts'

/** Google's cap for a multipart upload is 5 MB of content; a little over for the metadata part. */
const MAX_MULTIPART_BYTES = 5 * 1024 * 1024 + 64 * 1024

type Part = { contentType: string; body: Buffer }

/** The parts of a multipart/related body; undefined when it is not one. */
export function parseMultipartRelated(contentType: string, body: Buffer): Part[] | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!/^multipart\/related/i.test(contentType) || !boundary) return undefined
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: Part[] = []
  let start = body.indexOf(delimiter)
  if (start < 0) return undefined
  for (;;) {
    start += delimiter.length
    if (body.subarray(start, start + 2).toString() === '--') return parts
    const next = body.indexOf(delimiter, start)
    if (next < 0) return undefined
    // Each part: CRLF, headers, a blank line, the body, CRLF before the next delimiter.
    const raw = body.subarray(start, next)
    const headerEnd = raw.indexOf('\r\n\r\n')
    if (headerEnd < 0) return undefined
    const headers = raw.subarray(0, headerEnd).toString('utf8')
    let content = raw.subarray(headerEnd + 4)
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2)
    const type = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? 'application/octet-stream'
    parts.push({ contentType: type, body: content })
    start = next
  }
}

type Metadata = { name?: unknown; mimeType?: unknown; parents?: unknown; description?: unknown }

async function createFile(ctx: RouteContext): Promise<void> {
  const caller = authorize(ctx, 'files.create')
  if (!caller) return
  if (!canWrite(caller.scopes)) {
    sendDriveError(ctx, driveErrors.insufficientScopes())
    return
  }
  const uploadType = ctx.url.searchParams.get('uploadType')
  if (uploadType !== 'multipart') {
    sendDriveError(
      ctx,
      driveErrors.invalidValue(
        'uploadType',
        `Invalid value '${uploadType}' (the emulator takes multipart uploads only)`,
      ),
    )
    return
  }
  const fields = selection(ctx, DEFAULT_FILE_FIELDS, FILE_SCHEMA)
  if (!fields) return
  let body: Buffer
  try {
    body = await readBody(ctx.req, MAX_MULTIPART_BYTES)
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error
    sendDriveError(
      ctx,
      driveErrors.badRequest('body', 'The upload is larger than a multipart upload may be.'),
    )
    return
  }
  const parts = parseMultipartRelated(ctx.req.headers['content-type'] ?? '', body)
  const [metaPart, media] = parts ?? []
  if (!metaPart || !media || parts?.length !== 2) {
    sendDriveError(ctx, driveErrors.badRequest('body', 'Malformed multipart body.'))
    return
  }
  let metadata: Metadata
  try {
    metadata = JSON.parse(metaPart.body.toString('utf8')) as Metadata
  } catch {
    sendDriveError(ctx, driveErrors.badRequest('body', 'Invalid JSON payload received.'))
    return
  }
  const parents = Array.isArray(metadata.parents) ? metadata.parents.map(String) : ['root']
  for (const parent of parents) {
    const folder = parent === 'root' ? undefined : ctx.store.data.files.get(parent)
    if (parent !== 'root' && (!folder || folder.owner !== caller.account.email)) {
      sendDriveError(ctx, driveErrors.notFound(parent))
      return
    }
  }
  const created = ctx.store.addFile({
    owner: caller.account.email,
    name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : 'Untitled',
    mimeType: typeof metadata.mimeType === 'string' ? metadata.mimeType : media.contentType,
    content: media.body,
    parents,
    ...(typeof metadata.description === 'string' ? { description: metadata.description } : {}),
  })
  sendJson(ctx.res, 200, applySelection(created, fields))
}

export const driveUploadRoutes: readonly Route[] = [
  {
    methods: ['POST'],
    pattern: /^\/upload\/drive\/v3\/files$/,
    endpoint: 'files.create',
    handle: createFile,
  },
]
