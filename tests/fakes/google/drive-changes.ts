/**
 * Drive v3's change feed: `changes.getStartPageToken` (the token of "now") and `changes.list` (what
 * changed since a token). Every add, edit, trash and delete in the store appends to a change log;
 * a page lists each file once, at its latest change, with the file as it is now, or `removed: true`
 * when it is gone (deleted, or no longer visible to the caller). The last page carries
 * `newStartPageToken`, earlier ones `nextPageToken`. Shared drives' changes come only with
 * `includeItemsFromAllDrives=true` (which needs `supportsAllDrives=true`), as at Google.
 * https://developers.google.com/workspace/drive/api/reference/rest/v3/changes
 */
import { applySelection, FILE_SCHEMA, type Schema } from './drive-fields.ts'
import { allDrivesSupported, authorize, pageSizeOf, selection, sendDriveError } from './drive-routes.ts'
import { driveErrors } from './google-errors.ts'
import { sendJson } from './http.ts'
import type { Route, RouteContext } from './route-context.ts'
import type { ChangeRecord } from './store.ts'

const CHANGE_SCHEMA: Schema = {
  kind: true,
  changeType: true,
  time: true,
  removed: true,
  fileId: true,
  file: FILE_SCHEMA,
  driveId: true,
  drive: true,
}

const CHANGE_LIST_SCHEMA: Schema = {
  kind: true,
  nextPageToken: true,
  newStartPageToken: true,
  changes: CHANGE_SCHEMA,
}

const START_PAGE_TOKEN_SCHEMA: Schema = { kind: true, startPageToken: true }

const DEFAULT_CHANGE_LIST_FIELDS =
  'kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,file(kind,id,name,mimeType))'

function startPageToken(ctx: RouteContext): void {
  const caller = authorize(ctx, 'changes.getStartPageToken')
  if (!caller) return
  const fields = selection(ctx, 'kind,startPageToken', START_PAGE_TOKEN_SCHEMA)
  if (!fields) return
  sendJson(
    ctx.res,
    200,
    applySelection({ kind: 'drive#startPageToken', startPageToken: ctx.store.startPageToken() }, fields),
  )
}

function listChanges(ctx: RouteContext): void {
  const caller = authorize(ctx, 'changes.list')
  if (!caller) return
  const params = ctx.url.searchParams
  const rawToken = params.get('pageToken')
  if (rawToken === null || rawToken === '') {
    sendDriveError(ctx, driveErrors.requiredParameter('pageToken'))
    return
  }
  const token = /^\d+$/.test(rawToken) ? Number(rawToken) : Number.NaN
  if (!ctx.store.isValidChangeToken(token)) {
    sendDriveError(ctx, driveErrors.invalidValue('pageToken'))
    return
  }
  const withDrives = params.get('includeItemsFromAllDrives') === 'true'
  if (!allDrivesSupported(ctx, withDrives)) return
  const pageSize = pageSizeOf(ctx)
  if (pageSize === undefined) return
  const fields = selection(ctx, DEFAULT_CHANGE_LIST_FIELDS, CHANGE_LIST_SCHEMA)
  if (!fields) return
  const includeRemoved = params.get('includeRemoved') !== 'false'
  const restrictToMyDrive = params.get('restrictToMyDrive') === 'true'
  const email = caller.account.email

  // The caller's changes from the token on, each file once, at its latest change.
  const latest = new Map<string, ChangeRecord>()
  for (const record of ctx.store.data.changeLog) {
    if (record.id < token) continue
    if (restrictToMyDrive && record.driveId !== undefined) continue
    const file = ctx.store.data.files.get(record.fileId)
    const visibleNow = file !== undefined && ctx.store.canSee(file, email, withDrives)
    if (!visibleNow && !ctx.store.canSee(record, email, withDrives)) continue
    latest.delete(record.fileId)
    latest.set(record.fileId, record)
  }
  const entries = [...latest.values()]
  const page = entries.slice(0, pageSize)
  const changes = page.flatMap((record) => {
    const file = ctx.store.data.files.get(record.fileId)
    const visible = file !== undefined && ctx.store.canSee(file, email, withDrives)
    if (!visible && !includeRemoved) return []
    return [
      {
        kind: 'drive#change',
        changeType: 'file',
        time: new Date(record.time).toISOString(),
        removed: !visible,
        fileId: record.fileId,
        ...(visible ? { file: ctx.store.resource(file) } : {}),
        ...(record.driveId === undefined ? {} : { driveId: record.driveId }),
      },
    ]
  })
  const last = page.at(-1)
  const more = entries.length > page.length && last !== undefined
  const body = {
    kind: 'drive#changeList',
    ...(more ? { nextPageToken: String(last.id + 1) } : { newStartPageToken: ctx.store.startPageToken() }),
    changes,
  }
  sendJson(ctx.res, 200, applySelection(body, fields))
}

export const driveChangeRoutes: readonly Route[] = [
  {
    methods: ['GET'],
    pattern: /^\/drive\/v3\/changes\/startPageToken$/,
    endpoint: 'changes.getStartPageToken',
    handle: startPageToken,
  },
  { methods: ['GET'], pattern: /^\/drive\/v3\/changes$/, endpoint: 'changes.list', handle: listChanges },
]
