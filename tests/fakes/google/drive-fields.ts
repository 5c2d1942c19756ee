/**
 * Google's partial-response `fields` parameter: `nextPageToken, files(id,name,owners(emailAddress))`,
 * `files/id`, `*`. A selection keeps only the asked-for keys (a key whose value Drive does not have
 * for that file is left out, as Google does); a name Drive does not know is an error, answered as
 * Google does: 400 "Invalid field selection <name>".
 * https://developers.google.com/workspace/drive/api/guides/fields-parameter
 */

export class FieldSelectionError extends Error {
  readonly field: string
  constructor(field: string) {
    super(`Invalid field selection ${field}`)
    this.field = field
  }
}

/** `true`: the whole value; a map: only those keys, each with its own selection. */
export type Selection = true | Map<string, Selection>

/** Field names Drive knows at each level, to reject typos like Google does (`*` accepts anything). */
export type Schema = { [field: string]: Schema | true }

const USER_SCHEMA: Schema = {
  kind: true,
  displayName: true,
  emailAddress: true,
  me: true,
  permissionId: true,
  photoLink: true,
}

const FILE_FIELDS = [
  'appProperties',
  'capabilities',
  'clientEncryptionDetails',
  'contentHints',
  'contentRestrictions',
  'copyRequiresWriterPermission',
  'createdTime',
  'description',
  'downloadRestrictions',
  'driveId',
  'explicitlyTrashed',
  'exportLinks',
  'fileExtension',
  'folderColorRgb',
  'fullFileExtension',
  'hasAugmentedPermissions',
  'hasThumbnail',
  'headRevisionId',
  'iconLink',
  'id',
  'imageMediaMetadata',
  'inheritedPermissionsDisabled',
  'isAppAuthorized',
  'kind',
  'labelInfo',
  'linkShareMetadata',
  'md5Checksum',
  'mimeType',
  'modifiedByMe',
  'modifiedByMeTime',
  'modifiedTime',
  'name',
  'originalFilename',
  'ownedByMe',
  'parents',
  'permissionIds',
  'permissions',
  'properties',
  'quotaBytesUsed',
  'resourceKey',
  'sha1Checksum',
  'sha256Checksum',
  'shared',
  'sharedWithMeTime',
  'shortcutDetails',
  'size',
  'spaces',
  'starred',
  'teamDriveId',
  'thumbnailLink',
  'thumbnailVersion',
  'trashed',
  'trashedTime',
  'version',
  'videoMediaMetadata',
  'viewedByMe',
  'viewedByMeTime',
  'viewersCanCopyContent',
  'webContentLink',
  'webViewLink',
  'writersCanShare',
] as const

export const FILE_SCHEMA: Schema = {
  ...Object.fromEntries(FILE_FIELDS.map((f) => [f, true] as const)),
  owners: USER_SCHEMA,
  lastModifyingUser: USER_SCHEMA,
  sharingUser: USER_SCHEMA,
  trashingUser: USER_SCHEMA,
}

export const FILE_LIST_SCHEMA: Schema = {
  kind: true,
  incompleteSearch: true,
  nextPageToken: true,
  files: FILE_SCHEMA,
}

export const ABOUT_SCHEMA: Schema = {
  kind: true,
  user: USER_SCHEMA,
  storageQuota: true,
  importFormats: true,
  exportFormats: true,
  maxImportSizes: true,
  maxUploadSize: true,
  appInstalled: true,
  folderColorPalette: true,
  driveThemes: true,
  canCreateDrives: true,
  canCreateTeamDrives: true,
  teamDriveThemes: true,
}

/** What Drive answers when no `fields` is given. */
export const DEFAULT_FILE_FIELDS = 'kind,id,name,mimeType'
export const DEFAULT_FILE_LIST_FIELDS = `kind,incompleteSearch,nextPageToken,files(${DEFAULT_FILE_FIELDS})`

function merge(into: Map<string, Selection>, key: string, selection: Selection): void {
  const existing = into.get(key)
  if (existing === true || selection === true || existing === undefined) {
    into.set(key, existing === true || selection === true ? true : selection)
    return
  }
  for (const [k, v] of selection) merge(existing, k, v)
}

export function parseFields(fields: string, schema: Schema): Selection {
  let pos = 0
  const text = fields.replace(/\s+/g, '')

  function list(level: Schema | true, path: string): Map<string, Selection> {
    const out = new Map<string, Selection>()
    for (;;) {
      item(out, level, path)
      if (text.charAt(pos) !== ',') return out
      pos += 1
    }
  }

  function item(out: Map<string, Selection>, level: Schema | true, path: string): void {
    const name = /^[A-Za-z0-9_*]+/.exec(text.slice(pos))?.[0]
    if (!name) throw new FieldSelectionError(text.slice(pos) || path || fields)
    pos += name.length
    const full = path ? `${path}/${name}` : name
    if (name === '*') {
      out.set('*', true)
      return
    }
    const child = level === true ? true : level[name]
    if (child === undefined) throw new FieldSelectionError(name)
    let selection: Selection = true
    if (text.charAt(pos) === '/') {
      pos += 1
      const nested = new Map<string, Selection>()
      item(nested, child, full)
      selection = nested
    } else if (text.charAt(pos) === '(') {
      pos += 1
      selection = list(child, full)
      if (text.charAt(pos) !== ')') throw new FieldSelectionError(full)
      pos += 1
    }
    merge(out, name, selection)
  }

  const selection = list(schema, '')
  if (pos !== text.length) throw new FieldSelectionError(text.slice(pos))
  return selection
}

export function applySelection(value: unknown, selection: Selection): unknown {
  if (selection === true || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => applySelection(v, selection))
  if (selection.get('*') === true) return value
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, sub] of selection) {
    if (source[key] !== undefined) out[key] = applySelection(source[key], sub)
  }
  return out
}
