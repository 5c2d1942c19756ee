/**
 * The Documents table (D89) as pure functions: the library and the Drive listing merged into one
 * row per file, a readable type for each, and the person's view of them (search, filters, sort,
 * page). No effects; the table machine keeps the view, the screen reads the rows.
 */
import type { DocumentStatus, LibraryDocument } from '#contracts/documents.ts'
import type { DriveFile } from '#contracts/drive.ts'

/** A Drive file no sync has read into the library (yet): it can be downloaded, not asked about. */
export type RowStatus = DocumentStatus | 'notInLibrary'

export type DocumentRow = {
  /** Unique in the table: the library's id, or the Drive file's for one not in the library. */
  key: string
  name: string
  source: 'drive' | 'upload'
  /** What kind of file it is, in words ("PDF", "Google Sheet"). */
  type: string
  /** ISO time the file was last changed (Drive's modifiedTime, the upload's time), or null. */
  modified: string | null
  status: RowStatus
  /** Why it failed or was skipped. */
  reason: string | null
  /** What reading it gave ("2 pages, 3 passages"), for a document that was read. */
  details: string | null
  /** The library document (Retry, Delete), null for a Drive file not in the library. */
  libraryId: string | null
  /** The Drive file (the spec's 'Download'), null for an upload. */
  driveFileId: string | null
  /** The name folded for search (case and accents), its place in name order, and `modified` in ms (0 when unknown): computed once. */
  searchKey: string
  nameKey: string
  modifiedMs: number
}

export const STATUS_LABELS: Record<RowStatus, string> = {
  queued: 'Queued',
  processing: 'Reading',
  ready: 'Ready',
  failed: 'Failed',
  skipped: 'Skipped',
  notInLibrary: 'Not in library',
}

/** What the status filter offers; "Reading" covers the queued files too. */
export const STATUS_FILTERS = ['ready', 'reading', 'failed', 'skipped', 'notInLibrary'] as const
export type StatusFilter = (typeof STATUS_FILTERS)[number] | 'all'

export const SORT_COLUMNS = ['name', 'modified', 'status'] as const
export type SortColumn = (typeof SORT_COLUMNS)[number]
export type SortDirection = 'ascending' | 'descending'

export type TableView = {
  /** Typed in the search box: rows whose name contains it, ignoring case and accents. */
  query: string
  status: StatusFilter
  source: 'all' | 'drive' | 'upload'
  /** A readable type ("PDF"), or 'all'. */
  type: string
  sort: { column: SortColumn; direction: SortDirection }
  /** 0-based. */
  page: number
}

/** Rows on one page: a page of a 5,000-file library draws as fast as a page of 50. */
export const PAGE_SIZE = 50

export const INITIAL_VIEW: TableView = {
  query: '',
  status: 'all',
  source: 'all',
  type: 'all',
  // Newest first: a file just uploaded or synced is at the top, not at the end.
  sort: { column: 'modified', direction: 'descending' },
  page: 0,
}

const GOOGLE_TYPES: Record<string, string> = {
  document: 'Google Doc',
  spreadsheet: 'Google Sheet',
  presentation: 'Google Slides',
  drawing: 'Google Drawing',
  form: 'Google Form',
  folder: 'Folder',
  shortcut: 'Shortcut',
  site: 'Google Site',
  map: 'Google My Map',
  script: 'Apps Script',
  jam: 'Jamboard',
}

const MIME_TYPES: Record<string, string> = {
  'application/pdf': 'PDF',
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/x-markdown': 'Markdown',
  'text/csv': 'CSV',
  'text/html': 'HTML',
  'application/json': 'JSON',
  'application/rtf': 'Rich text',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.ms-powerpoint': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
  'application/zip': 'ZIP archive',
}

/** A file's kind in words, from its MIME type (else its extension): never a raw MIME type. */
export function readableType(mimeType: string, name: string): string {
  const known = typeOfMime.get(mimeType)
  if (known !== undefined) return known
  const type = typeOf(mimeType, name)
  // Only a type the MIME type alone decides is remembered (the extension's depends on the name).
  if (type !== null && !type.fromName) typeOfMime.set(mimeType, type.label)
  return type?.label ?? 'File'
}

/** The MIME types met so far and their words: a library of 5,000 files has a dozen. */
const typeOfMime = new Map<string, string>()

function typeOf(mimeType: string, name: string): { label: string; fromName: boolean } | null {
  const byMime = (label: string) => ({ label, fromName: false })
  const google = /^application\/vnd\.google-apps\.(.+)$/.exec(mimeType)?.[1]
  if (google) return byMime(GOOGLE_TYPES[google] ?? 'Google file')
  const known = MIME_TYPES[mimeType]
  if (known) return byMime(known)
  const [kind] = mimeType.split('/')
  if (kind === 'image') return byMime('Image')
  if (kind === 'video') return byMime('Video')
  if (kind === 'audio') return byMime('Audio')
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]
  return extension ? { label: extension.toUpperCase(), fromName: true } : null
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** 1-based pages as ranges: [1, 2, 3, 5] → "1–3, 5"; past a few ranges, the rest as "…". */
function pageRanges(pages: readonly number[]): string {
  const ranges: string[] = []
  let start = pages[0] ?? 0
  pages.forEach((page, i) => {
    const next = pages[i + 1]
    if (next === page + 1) return
    ranges.push(start === page ? String(page) : `${start}–${page}`)
    start = next ?? 0
  })
  return ranges.length > 5 ? `${ranges.slice(0, 5).join(', ')}…` : ranges.join(', ')
}

/** Which of it OCR read (D74): all of it (an image, a scan), or some pages of a PDF. */
function ocrDetail({ ocrPages, pages }: LibraryDocument): string | null {
  if (!ocrPages || ocrPages.length === 0) return null
  if (pages === null || ocrPages.length === pages) return 'read by OCR'
  return `${ocrPages.length === 1 ? 'page' : 'pages'} ${pageRanges(ocrPages)} read by OCR`
}

function detailsOf(document: LibraryDocument): string | null {
  const parts: string[] = []
  if (document.pages !== null) parts.push(plural(document.pages, 'page'))
  if (document.chunks !== null) parts.push(plural(document.chunks, 'passage'))
  const ocr = ocrDetail(document)
  if (ocr) parts.push(ocr)
  return parts.length > 0 ? parts.join(', ') : null
}

/**
 * One row per file: every library document (with its Drive file's listing when Drive lists it),
 * then every listed Drive file that is not in the library. Folders are not files to read, and a
 * Drive file the person removed from the library is listed with the removed ones (`removed`), not here.
 */
export function toRows(
  documents: readonly LibraryDocument[],
  driveFiles: readonly DriveFile[],
  removed: readonly LibraryDocument[] = [],
): DocumentRow[] {
  const listed = new Map(driveFiles.map((file) => [file.id, file]))
  const inLibrary = new Set<string>(removed.flatMap((document) => document.driveFileId ?? []))
  const rows: DocumentRow[] = documents.map((document) => {
    const driveFileId = document.source === 'drive' ? (document.driveFileId ?? null) : null
    if (driveFileId) inLibrary.add(driveFileId)
    const file = driveFileId ? listed.get(driveFileId) : undefined
    return withKeys({
      key: document.id,
      name: document.name,
      source: document.source,
      type: readableType(document.mimeType, document.name),
      modified: file?.modifiedTime ?? document.modifiedTime ?? document.updatedAt,
      status: document.status,
      reason: document.reason,
      details: detailsOf(document),
      libraryId: document.id,
      driveFileId,
    })
  })
  for (const file of driveFiles) {
    if (inLibrary.has(file.id) || file.mimeType === 'application/vnd.google-apps.folder') continue
    rows.push(
      withKeys({
        key: `drive:${file.id}`,
        name: file.name,
        source: 'drive',
        type: readableType(file.mimeType, file.name),
        modified: file.modifiedTime,
        status: 'notInLibrary',
        reason: null,
        details: null,
        libraryId: null,
        driveFileId: file.id,
      }),
    )
  }
  return rows
}

/** Folds case and accents, so "resume" finds "Résumé.pdf". */
function folded(text: string): string {
  // Most names are plain ASCII: lower case is all they need, and it is ten times cheaper.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase()
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
}

/**
 * A name's place in name order, computed once: folded like the search, each run of digits padded
 * so "agenda 9" comes before "agenda 10". Comparing two keys is a plain string comparison, which
 * sorts 5,000 names several times faster than a collator (bench/documents-table.ts).
 */
function nameKey(searchKey: string): string {
  return searchKey.replace(/\d+/g, (digits) => digits.padStart(12, '0'))
}

function withKeys(row: Omit<DocumentRow, 'searchKey' | 'nameKey' | 'modifiedMs'>): DocumentRow {
  const searchKey = folded(row.name)
  return { ...row, searchKey, nameKey: nameKey(searchKey), modifiedMs: Date.parse(row.modified ?? '') || 0 }
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** What needs the person first: failures, then files still being read, then the rest. */
const STATUS_ORDER: Record<RowStatus, number> = {
  failed: 0,
  processing: 1,
  queued: 2,
  notInLibrary: 3,
  skipped: 4,
  ready: 5,
}

function matchesStatus(row: DocumentRow, status: StatusFilter): boolean {
  if (status === 'all') return true
  if (status === 'reading') return row.status === 'queued' || row.status === 'processing'
  return row.status === status
}

function compare(a: DocumentRow, b: DocumentRow, column: SortColumn): number {
  if (column === 'modified') return a.modifiedMs - b.modifiedMs
  if (column === 'status') return STATUS_ORDER[a.status] - STATUS_ORDER[b.status]
  return byKey(a.nameKey, b.nameKey)
}

/**
 * The rows in the view's order. Kept apart from the search and filters so a screen can reuse it
 * while the person types (sorting is the costly part; filtering a sorted list keeps its order).
 */
export function sortRows(rows: readonly DocumentRow[], sort: TableView['sort']): DocumentRow[] {
  const sign = sort.direction === 'ascending' ? 1 : -1
  // Ties keep a stable, readable order: by name.
  return [...rows].sort(
    (a, b) =>
      sign * compare(a, b, sort.column) || byName.compare(a.name, b.name) || a.key.localeCompare(b.key),
  )
}

/** The sorted rows the view's search and filters keep. */
export function filterRows(sorted: readonly DocumentRow[], view: TableView): DocumentRow[] {
  const query = folded(view.query.trim())
  return sorted.filter(
    (row) =>
      (query === '' || row.searchKey.includes(query)) &&
      matchesStatus(row, view.status) &&
      (view.source === 'all' || row.source === view.source) &&
      (view.type === 'all' || row.type === view.type),
  )
}

/** The rows the view shows, in its order, all pages together. */
export function visibleRows(rows: readonly DocumentRow[], view: TableView): DocumentRow[] {
  return filterRows(sortRows(rows, view.sort), view)
}

export type TablePage = {
  rows: DocumentRow[]
  /** Matching rows on every page. */
  total: number
  /** The page shown (clamped to the last one), 0-based, and how many there are (at least 1). */
  page: number
  pages: number
  /** 1-based positions of the first and last row shown (0 and 0 when none). */
  from: number
  to: number
}

/** One page of the rows the view shows. */
export function pageOf(rows: readonly DocumentRow[], view: TableView): TablePage {
  return pageOfSorted(sortRows(rows, view.sort), view)
}

/** One page of rows already in the view's order (sortRows). */
export function pageOfSorted(sorted: readonly DocumentRow[], view: TableView): TablePage {
  const all = filterRows(sorted, view)
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE))
  const page = Math.min(Math.max(0, view.page), pages - 1)
  const shown = all.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)
  return {
    rows: shown,
    total: all.length,
    page,
    pages,
    from: shown.length === 0 ? 0 : page * PAGE_SIZE + 1,
    to: page * PAGE_SIZE + shown.length,
  }
}

/** The readable types present, for the type filter, in name order. */
export function typesOf(rows: readonly DocumentRow[]): string[] {
  return [...new Set(rows.map((row) => row.type))].sort(byName.compare)
}
