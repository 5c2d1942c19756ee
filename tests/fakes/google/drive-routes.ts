/**
 * The Drive v3 calls a read-only Drive app makes, at www.googleapis.com's paths: files.list (q,
 * pageSize capped at the emulator's maxPageSize so paging always happens, pageToken, orderBy,
 * fields), files.get (metadata, or the bytes with alt=media, Range included), files.export and
 * about.get. Every call needs a live Bearer access token with a Drive scope; injected failures
 * are answered before anything else.
 * https://developers.google.com/workspace/drive/api/reference/rest/v3/files
 */

import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  ABOUT_SCHEMA,
  applySelection,
  DEFAULT_FILE_FIELDS,
  DEFAULT_FILE_LIST_FIELDS,
  FILE_LIST_SCHEMA,
  FILE_SCHEMA,
  FieldSelectionError,
  parseFields,
  type Schema,
  type Selection,
} from './drive-fields.ts'
import { type FilePredicate, parseDriveQuery, QuerySyntaxError } from './drive-query.ts'
import { driveUser, FOLDER_MIME, isBinaryFile, isEditorsFile } from './drive-resource.ts'
import { contentChunks, contentSize } from './file-content.ts'
import { type DriveError, driveErrors } from './google-errors.ts'
import { sendJson } from './http.ts'
import type { Route, RouteContext } from './route-context.ts'
import { type DriveAccess, driveAccess } from './scopes.ts'
import type { DriveEndpoint, EmulatorAccount, StoredFile } from './store.ts'

const MAX_EXPORT_BYTES = 10 * 1024 * 1024
const DEFAULT_PAGE_SIZE = 100

export type Caller = { account: EmulatorAccount; access: DriveAccess; scopes: readonly string[] }

/** `supportsAllDrives=true`: the caller copes with shared drives, so their files are in reach. */
export function supportsAllDrives(ctx: RouteContext): boolean {
  return ctx.url.searchParams.get('supportsAllDrives') === 'true'
}

/**
 * includeItemsFromAllDrives is refused without supportsAllDrives, as Drive refuses it: false once
 * the 400 is sent.
 */
export function allDrivesSupported(ctx: RouteContext, withDrives: boolean): boolean {
  if (!withDrives || supportsAllDrives(ctx)) return true
  sendDriveError(
    ctx,
    driveErrors.badRequest(
      'supportsAllDrives',
      'The includeItemsFromAllDrives parameter is only supported when supportsAllDrives is true.',
    ),
  )
  return false
}

export function sendDriveError(ctx: RouteContext, error: DriveError): void {
  sendJson(ctx.res, error.status, error.body, error.headers)
}

/** Failure injection first, then the access token, then the scope: undefined when answered. */
export function authorize(ctx: RouteContext, endpoint: DriveEndpoint): Caller | undefined {
  ctx.setEndpoint(endpoint)
  const failure = ctx.store.takeFault(endpoint)
  if (failure) {
    sendDriveError(ctx, driveErrors.injected(failure))
    return undefined
  }
  const header = ctx.req.headers.authorization
  const token = header?.startsWith('Bearer ')
    ? header.slice(7).trim()
    : (ctx.url.searchParams.get('access_token') ?? undefined)
  if (!token) {
    sendDriveError(ctx, driveErrors.loginRequired())
    return undefined
  }
  const found = ctx.store.grantOfToken(token)
  if (!found) {
    sendDriveError(ctx, driveErrors.invalidCredentials())
    return undefined
  }
  const account = ctx.store.accountOf(found.grant.email)
  ctx.setAccount(account.email)
  const access = driveAccess(found.grant.scopes)
  if (access === 'none') {
    sendDriveError(ctx, driveErrors.insufficientScopes())
    return undefined
  }
  return { account, access, scopes: found.grant.scopes }
}

export function selection(ctx: RouteContext, fallback: string, schema: Schema): Selection | undefined {
  try {
    return parseFields(ctx.url.searchParams.get('fields') ?? fallback, schema)
  } catch (error) {
    if (!(error instanceof FieldSelectionError)) throw error
    sendDriveError(ctx, driveErrors.invalidFieldSelection(error.field))
    return undefined
  }
}

/**
 * The caller's file; another account's file is "not found" too, as at Google, and so is a file in
 * a shared drive unless the call says `supportsAllDrives=true`.
 */
export function lookUp(
  ctx: RouteContext,
  caller: Caller,
  fileId: string,
  allDrives = supportsAllDrives(ctx),
): StoredFile | DriveError {
  const file = fileId === 'root' ? rootFolder(ctx, caller.account) : ctx.store.data.files.get(fileId)
  if (!file || !ctx.store.canSee(file, caller.account.email, allDrives) || caller.access === 'app-files') {
    return driveErrors.notFound(fileId)
  }
  return file
}

function rootFolder(ctx: RouteContext, account: EmulatorAccount): StoredFile {
  const created = Date.parse('2020-01-01T00:00:00.000Z')
  return {
    seq: -1,
    id: account.rootFolderId,
    owner: account.email,
    name: 'My Drive',
    mimeType: FOLDER_MIME,
    parents: [],
    starred: false,
    trashed: false,
    createdTime: created,
    modifiedTime: Math.max(created, ...[...ctx.store.data.files.values()].map((f) => f.modifiedTime)),
    version: 1,
    content: { kind: 'none' },
    searchText: '',
  }
}

// ---- files.list ----

const ORDER_KEYS = [
  'createdTime',
  'folder',
  'modifiedByMeTime',
  'modifiedTime',
  'name',
  'name_natural',
  'quotaBytesUsed',
  'recency',
  'sharedWithMeTime',
  'starred',
  'viewedByMeTime',
] as const
type OrderKey = (typeof ORDER_KEYS)[number]
type Comparator = (a: StoredFile, b: StoredFile) => number

const lower = (s: string) => s.toLowerCase()
const ascending: Record<OrderKey, Comparator> = {
  createdTime: (a, b) => a.createdTime - b.createdTime,
  folder: (a, b) => Number(b.mimeType === FOLDER_MIME) - Number(a.mimeType === FOLDER_MIME),
  modifiedByMeTime: (a, b) => a.modifiedTime - b.modifiedTime,
  modifiedTime: (a, b) => a.modifiedTime - b.modifiedTime,
  name: (a, b) => (lower(a.name) < lower(b.name) ? -1 : lower(a.name) > lower(b.name) ? 1 : 0),
  name_natural: (a, b) => a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' }),
  quotaBytesUsed: (a, b) => (contentSize(a.content) ?? 0) - (contentSize(b.content) ?? 0),
  recency: (a, b) => a.modifiedTime - b.modifiedTime,
  sharedWithMeTime: () => 0,
  starred: (a, b) => Number(b.starred) - Number(a.starred),
  viewedByMeTime: (a, b) => a.modifiedTime - b.modifiedTime,
}

function parseOrderBy(raw: string): Comparator | undefined {
  const parts: Comparator[] = []
  for (const part of raw.split(',').map((p) => p.trim())) {
    const match = /^(\w+)(?:\s+(asc|desc))?$/.exec(part)
    const key = match?.[1] as OrderKey | undefined
    if (!match || !key || !ORDER_KEYS.includes(key)) return undefined
    const compare = ascending[key]
    parts.push(match[2] === 'desc' ? (a, b) => compare(b, a) : compare)
  }
  return (a, b) => {
    for (const compare of parts) {
      const result = compare(a, b)
      if (result !== 0) return result
    }
    return a.seq - b.seq
  }
}

type PageToken = { offset: number; fingerprint: string }

function encodePageToken(token: PageToken): string {
  return Buffer.from(JSON.stringify([token.offset, token.fingerprint])).toString('base64url')
}

function decodePageToken(raw: string): PageToken | undefined {
  try {
    const [offset, fingerprint] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[]
    if (typeof offset !== 'number' || typeof fingerprint !== 'string' || offset < 0) return undefined
    return { offset, fingerprint }
  } catch {
    return undefined
  }
}

type ListRequest = {
  /** Whether files in the caller's shared drives are listed too (`corpora=allDrives`). */
  allDrives: boolean
  /** `corpora=drive`: only this shared drive. */
  driveId: string | null
  predicate: FilePredicate
  compare: Comparator
  pageSize: number
  offset: number
  fingerprint: string
}

/**
 * The page size asked for (files.list and changes.list take the same parameter), capped at the
 * emulator's maxPageSize; undefined after answering 400.
 */
export function pageSizeOf(ctx: RouteContext): number | undefined {
  const raw = ctx.url.searchParams.get('pageSize')
  const size = raw === null ? DEFAULT_PAGE_SIZE : Number(raw)
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    sendDriveError(
      ctx,
      driveErrors.invalidValue(
        'pageSize',
        `Invalid value '${raw}'. Values must be within the range: [1, 1000]`,
      ),
    )
    return undefined
  }
  return Math.min(size, ctx.store.settings.maxPageSize)
}

/** Parses and checks files.list's parameters; undefined after answering a 400. */
function listRequest(ctx: RouteContext, caller: Caller): ListRequest | undefined {
  const params = ctx.url.searchParams
  const pageSize = pageSizeOf(ctx)
  if (pageSize === undefined) return undefined
  const q = params.get('q') ?? ''
  let predicate: FilePredicate = () => true
  try {
    if (q.trim()) predicate = parseDriveQuery(q)
  } catch (error) {
    if (!(error instanceof QuerySyntaxError)) throw error
    sendDriveError(ctx, driveErrors.invalidValue('q'))
    return undefined
  }
  const orderBy = params.get('orderBy')
  if (orderBy && /\bfullText\b/.test(q)) {
    sendDriveError(
      ctx,
      driveErrors.badRequest(
        'orderBy',
        'Sorting is not supported for queries with fullText terms. Results are always in descending relevance order.',
      ),
    )
    return undefined
  }
  const compare = orderBy ? parseOrderBy(orderBy) : (a: StoredFile, b: StoredFile) => a.seq - b.seq
  if (!compare) {
    sendDriveError(ctx, driveErrors.invalidValue('orderBy'))
    return undefined
  }
  const corpora = params.get('corpora') ?? 'user'
  const withDrives = params.get('includeItemsFromAllDrives') === 'true'
  if (!['user', 'domain', 'drive', 'allDrives'].includes(corpora)) {
    sendDriveError(ctx, driveErrors.invalidValue('corpora'))
    return undefined
  }
  if ((corpora === 'allDrives' || corpora === 'drive') && !withDrives) {
    sendDriveError(
      ctx,
      driveErrors.badRequest(
        'includeItemsFromAllDrives',
        'The includeItemsFromAllDrives parameter must be set to true when corpora is drive or allDrives.',
      ),
    )
    return undefined
  }
  if (!allDrivesSupported(ctx, withDrives)) return undefined
  const driveId = params.get('driveId')
  if ((corpora === 'drive') !== (driveId !== null)) {
    sendDriveError(ctx, driveErrors.invalidValue('driveId'))
    return undefined
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([caller.account.email, q, orderBy, params.get('spaces'), corpora, driveId]))
    .digest('base64url')
    .slice(0, 16)
  const rawToken = params.get('pageToken')
  const token = rawToken ? decodePageToken(rawToken) : { offset: 0, fingerprint }
  if (!token || token.fingerprint !== fingerprint) {
    sendDriveError(ctx, driveErrors.invalidValue('pageToken'))
    return undefined
  }
  return {
    allDrives: corpora === 'allDrives',
    driveId,
    predicate,
    compare,
    pageSize,
    offset: token.offset,
    fingerprint,
  }
}

/** `user`: the caller's own files; `allDrives`: those and their shared drives'; `drive`: one drive's. */
function inCorpus(ctx: RouteContext, caller: Caller, request: ListRequest, file: StoredFile): boolean {
  const email = caller.account.email
  if (request.driveId !== null)
    return file.driveId === request.driveId && ctx.store.isMember(file.driveId, email)
  if (file.driveId !== undefined) return request.allDrives && ctx.store.isMember(file.driveId, email)
  return file.owner === email
}

function listFiles(ctx: RouteContext): void {
  const caller = authorize(ctx, 'files.list')
  if (!caller) return
  const fields = selection(ctx, DEFAULT_FILE_LIST_FIELDS, FILE_LIST_SCHEMA)
  if (!fields) return
  const request = listRequest(ctx, caller)
  if (!request) return
  const context = { ownerEmail: caller.account.email, rootFolderId: caller.account.rootFolderId }
  const spaces = ctx.url.searchParams.get('spaces') ?? 'drive'
  const matching =
    caller.access === 'app-files' || !spaces.split(',').includes('drive')
      ? []
      : [...ctx.store.data.files.values()]
          .filter((f) => inCorpus(ctx, caller, request, f) && request.predicate(f, context))
          .sort(request.compare)
  const end = request.offset + request.pageSize
  const body = {
    kind: 'drive#fileList',
    ...(end < matching.length
      ? { nextPageToken: encodePageToken({ offset: end, fingerprint: request.fingerprint }) }
      : {}),
    incompleteSearch: false,
    files: matching.slice(request.offset, end).map((f) => ctx.store.resource(f)),
  }
  sendJson(ctx.res, 200, applySelection(body, fields))
}

// ---- files.get ----

function parseRange(header: string, size: number): { start: number; end: number } | 'invalid' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return undefined
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return 'invalid'
  if (from === '') {
    const suffix = Number(to)
    return suffix === 0 ? 'invalid' : { start: Math.max(0, size - suffix), end: size }
  }
  const start = Number(from)
  const end = to === '' ? size : Math.min(size, Number(to) + 1)
  return start >= size || end <= start ? 'invalid' : { start, end }
}

async function download(ctx: RouteContext, file: StoredFile): Promise<void> {
  if (!isBinaryFile(file.mimeType) || file.content.kind === 'none') {
    sendDriveError(ctx, driveErrors.fileNotDownloadable())
    return
  }
  const size = contentSize(file.content) ?? 0
  const range = ctx.req.headers.range ? parseRange(ctx.req.headers.range, size) : undefined
  if (range === 'invalid') {
    sendDriveError(ctx, driveErrors.rangeNotSatisfiable())
    return
  }
  const { start, end } = range ?? { start: 0, end: size }
  ctx.res.writeHead(range ? 206 : 200, {
    'content-type': file.mimeType,
    'content-length': end - start,
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=0',
    ...(range ? { 'content-range': `bytes ${start}-${end - 1}/${size}` } : {}),
  })
  try {
    await pipeline(Readable.from(contentChunks(file.content, start, end)), ctx.res)
  } catch (error) {
    // The client hung up mid-download (as the Drive client does when a caller aborts).
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error
  }
}

async function getFile(ctx: RouteContext): Promise<void> {
  const alt = ctx.url.searchParams.get('alt') ?? 'json'
  if (alt !== 'json' && alt !== 'media') {
    sendDriveError(ctx, driveErrors.invalidValue('alt'))
    return
  }
  const caller = authorize(ctx, alt === 'media' ? 'files.media' : 'files.get')
  if (!caller) return
  const fields = alt === 'json' ? selection(ctx, DEFAULT_FILE_FIELDS, FILE_SCHEMA) : true
  if (!fields) return
  const file = lookUp(ctx, caller, ctx.params[0] ?? '')
  if ('status' in file) {
    sendDriveError(ctx, file)
  } else if (alt === 'json') {
    sendJson(ctx.res, 200, applySelection(ctx.store.resource(file), fields))
  } else if (caller.access !== 'content') {
    sendDriveError(ctx, driveErrors.insufficientScopes())
  } else {
    await download(ctx, file)
  }
}

// ---- files.export, about.get ----

function exported(ctx: RouteContext, caller: Caller): DriveError | { mimeType: string; bytes: Buffer } {
  const mimeType = ctx.url.searchParams.get('mimeType')
  if (!mimeType) return driveErrors.requiredParameter('mimeType')
  // files.export has no supportsAllDrives: a shared drive's file exports like any other.
  const file = lookUp(ctx, caller, ctx.params[0] ?? '', true)
  if ('status' in file) return file
  if (caller.access !== 'content') return driveErrors.insufficientScopes()
  if (!isEditorsFile(file.mimeType) || file.content.kind !== 'exports') return driveErrors.fileNotExportable()
  const body = file.content.exports[mimeType]
  if (body === undefined) return driveErrors.conversionNotSupported()
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body)
  if (bytes.length > MAX_EXPORT_BYTES) return driveErrors.exportSizeLimitExceeded()
  return { mimeType, bytes }
}

function exportFile(ctx: RouteContext): void {
  const caller = authorize(ctx, 'files.export')
  if (!caller) return
  const result = exported(ctx, caller)
  if ('status' in result) {
    sendDriveError(ctx, result)
    return
  }
  ctx.res.writeHead(200, {
    'content-type': result.mimeType.startsWith('text/')
      ? `${result.mimeType}; charset=utf-8`
      : result.mimeType,
    'content-length': result.bytes.length,
    'cache-control': 'private, max-age=0',
  })
  ctx.res.end(result.bytes)
}

function about(ctx: RouteContext): void {
  const caller = authorize(ctx, 'about.get')
  if (!caller) return
  if (!ctx.url.searchParams.get('fields')) {
    sendDriveError(
      ctx,
      driveErrors.requiredParameter('fields', "The 'fields' parameter is required for this method."),
    )
    return
  }
  const fields = selection(ctx, '', ABOUT_SCHEMA)
  if (!fields) return
  const usage = [...ctx.store.data.files.values()]
    .filter((f) => f.owner === caller.account.email)
    .reduce((sum, f) => sum + (contentSize(f.content) ?? 0), 0)
  const body = {
    kind: 'drive#about',
    user: driveUser(caller.account),
    storageQuota: {
      limit: String(15 * 1024 ** 3),
      usage: String(usage),
      usageInDrive: String(usage),
      usageInDriveTrash: '0',
    },
    maxUploadSize: String(5 * 1024 ** 4),
    appInstalled: false,
    canCreateDrives: false,
  }
  sendJson(ctx.res, 200, applySelection(body, fields))
}

export const driveRoutes: readonly Route[] = [
  { methods: ['GET'], pattern: /^\/drive\/v3\/files$/, endpoint: 'files.list', handle: listFiles },
  {
    methods: ['GET'],
    pattern: /^\/(?:download\/)?drive\/v3\/files\/([^/]+)$/,
    endpoint: 'files.get',
    handle: getFile,
  },
  {
    methods: ['GET'],
    pattern: /^\/drive\/v3\/files\/([^/]+)\/export$/,
    endpoint: 'files.export',
    handle: exportFile,
  },
  { methods: ['GET'], pattern: /^\/drive\/v3\/about$/, endpoint: 'about.get', handle: about },
]
