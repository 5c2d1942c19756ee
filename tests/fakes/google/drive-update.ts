/**
 * Drive v3's writes to an existing file: files.update (`PATCH /drive/v3/files/{id}`: metadata in a
 * JSON body — `name`, `description`, `trashed` — and a move with `addParents` / `removeParents`,
 * comma-separated folder ids) and files.delete (`DELETE /drive/v3/files/{id}`, 204, for good).
 * Both need a scope that writes (`drive`, or `drive.file` for the app's own files, which the
 * emulator does not track: such a caller finds nothing). A file has one parent at most, as in
 * Drive since 2020: a second one is refused with 403 cannotAddParent. Trashing or deleting a
 * folder takes what sits below it along (store.ts).
 * https://developers.google.com/workspace/drive/api/reference/rest/v3/files/update
 */
import { applySelection, DEFAULT_FILE_FIELDS, FILE_SCHEMA } from './drive-fields.ts'
import { FOLDER_MIME } from './drive-resource.ts'
import { authorize, lookUp, selection, sendDriveError } from './drive-routes.ts'
import { driveErrors } from './google-errors.ts'
import { readJson, sendJson } from './http.ts'
import type { Route, RouteContext } from './route-context.ts'
import { canWrite } from './scopes.ts'

type Metadata = { name?: unknown; description?: unknown; trashed?: unknown }

const idList = (raw: string | null) =>
  (raw ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')

async function updateFile(ctx: RouteContext): Promise<void> {
  const caller = authorize(ctx, 'files.update')
  if (!caller) return
  if (!canWrite(caller.scopes)) {
    sendDriveError(ctx, driveErrors.insufficientScopes())
    return
  }
  const fields = selection(ctx, DEFAULT_FILE_FIELDS, FILE_SCHEMA)
  if (!fields) return
  const file = lookUp(ctx, caller, ctx.params[0] ?? '')
  if ('status' in file) {
    sendDriveError(ctx, file)
    return
  }
  let metadata: Metadata
  try {
    metadata = (await readJson(ctx.req)) as Metadata
  } catch {
    sendDriveError(ctx, driveErrors.badRequest('body', 'Invalid JSON payload received.'))
    return
  }
  const add = idList(ctx.url.searchParams.get('addParents'))
  const remove = idList(ctx.url.searchParams.get('removeParents'))
  for (const parent of add) {
    const folder = lookUp(ctx, caller, parent)
    if ('status' in folder || folder.mimeType !== FOLDER_MIME) {
      sendDriveError(ctx, driveErrors.notFound(parent))
      return
    }
  }
  const { rootFolderId } = caller.account
  const removed = new Set(remove.map((p) => (p === 'root' ? rootFolderId : p)))
  const after = new Set([
    ...file.parents.filter((p) => !removed.has(p)),
    ...add.map((p) => (p === 'root' ? rootFolderId : p)),
  ])
  if (after.size > 1) {
    sendDriveError(ctx, driveErrors.cannotAddParent())
    return
  }
  const { store } = ctx
  if (typeof metadata.name === 'string' || typeof metadata.description === 'string') {
    store.updateFile(file.id, {
      ...(typeof metadata.name === 'string' ? { name: metadata.name } : {}),
      ...(typeof metadata.description === 'string' ? { description: metadata.description } : {}),
    })
  }
  if (add.length > 0 || remove.length > 0) store.moveFile(file.id, { addParents: add, removeParents: remove })
  if (typeof metadata.trashed === 'boolean' && metadata.trashed !== file.trashed)
    store.trashFile(file.id, metadata.trashed)
  sendJson(ctx.res, 200, applySelection(store.resource(file), fields))
}

function deleteFile(ctx: RouteContext): void {
  const caller = authorize(ctx, 'files.delete')
  if (!caller) return
  if (!canWrite(caller.scopes)) {
    sendDriveError(ctx, driveErrors.insufficientScopes())
    return
  }
  const file = lookUp(ctx, caller, ctx.params[0] ?? '')
  if ('status' in file) {
    sendDriveError(ctx, file)
    return
  }
  ctx.store.removeFile(file.id)
  ctx.res.writeHead(204, { 'content-length': 0 })
  ctx.res.end()
}

export const driveUpdateRoutes: readonly Route[] = [
  {
    methods: ['PATCH'],
    pattern: /^\/drive\/v3\/files\/([^/]+)$/,
    endpoint: 'files.update',
    handle: updateFile,
  },
  {
    methods: ['DELETE'],
    pattern: /^\/drive\/v3\/files\/([^/]+)$/,
    endpoint: 'files.delete',
    handle: deleteFile,
  },
]
