/**
 * A stored file as Drive v3 shows it (the `File` resource): int64 values as strings, times as ISO
 * 8601 with milliseconds, links on Google's hosts, and only the fields Drive has for that kind of
 * file (no size or checksums for folders and Docs Editors files, no webContentLink for them).
 */
import { contentSize } from './file-content.ts'
import type { EmulatorAccount, StoredFile } from './store.ts'

export type DriveUser = {
  kind: 'drive#user'
  displayName: string
  emailAddress: string
  me: boolean
  permissionId: string
  photoLink: string
}

export type DriveFileResource = {
  kind: 'drive#file'
  id: string
  name: string
  mimeType: string
  description?: string
  starred: boolean
  trashed: boolean
  explicitlyTrashed: boolean
  trashedTime?: string
  parents: string[]
  spaces: string[]
  version: string
  webViewLink: string
  webContentLink?: string
  iconLink: string
  hasThumbnail: boolean
  thumbnailVersion: string
  viewedByMe: boolean
  viewedByMeTime: string
  createdTime: string
  modifiedTime: string
  modifiedByMeTime: string
  modifiedByMe: boolean
  owners?: DriveUser[]
  lastModifyingUser: DriveUser
  shared: boolean
  ownedByMe: boolean
  viewersCanCopyContent: boolean
  copyRequiresWriterPermission: boolean
  writersCanShare: boolean
  permissionIds: string[]
  originalFilename?: string
  fullFileExtension?: string
  fileExtension?: string
  md5Checksum?: string
  sha1Checksum?: string
  sha256Checksum?: string
  size?: string
  quotaBytesUsed: string
  headRevisionId?: string
  exportLinks?: Record<string, string>
  isAppAuthorized: boolean
  capabilities: Record<string, boolean>
  driveId?: string
  shortcutDetails?: { targetId: string; targetMimeType?: string }
}

const EDITORS_PREFIX = 'application/vnd.google-apps.'
export const FOLDER_MIME = 'application/vnd.google-apps.folder'

export function isEditorsFile(mimeType: string): boolean {
  return mimeType.startsWith(EDITORS_PREFIX) && mimeType !== FOLDER_MIME
}

export function isBinaryFile(mimeType: string): boolean {
  return !mimeType.startsWith(EDITORS_PREFIX)
}

export function webViewLink(id: string, mimeType: string): string {
  switch (mimeType) {
    case 'application/vnd.google-apps.document':
      return `https://docs.google.com/document/d/${id}/edit?usp=drivesdk`
    case 'application/vnd.google-apps.spreadsheet':
      return `https://docs.google.com/spreadsheets/d/${id}/edit?usp=drivesdk`
    case 'application/vnd.google-apps.presentation':
      return `https://docs.google.com/presentation/d/${id}/edit?usp=drivesdk`
    case FOLDER_MIME:
      return `https://drive.google.com/drive/folders/${id}`
    default:
      return `https://drive.google.com/file/d/${id}/view?usp=drivesdk`
  }
}

const EXPORT_FORMATS: Record<string, string> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/pdf': 'pdf',
}

function exportLink(id: string, mimeType: string, exportMime: string): string {
  const format = EXPORT_FORMATS[exportMime] ?? 'bin'
  if (mimeType === 'application/vnd.google-apps.spreadsheet') {
    return `https://docs.google.com/spreadsheets/export?id=${id}&exportFormat=${format}`
  }
  return `https://docs.google.com/feeds/download/documents/export/Export?id=${id}&exportFormat=${format}`
}

export function driveUser(account: EmulatorAccount): DriveUser {
  return {
    kind: 'drive#user',
    displayName: account.name,
    emailAddress: account.email,
    me: true,
    permissionId: account.permissionId,
    photoLink: `https://lh3.googleusercontent.com/a/default-user=s64`,
  }
}

export const SHORTCUT_MIME = 'application/vnd.google-apps.shortcut'

/**
 * `targetMimeType`: a shortcut's target's type, when the target still exists. A file in a shared
 * drive has no owners (the drive owns it) and carries its `driveId`.
 */
export function toFileResource(
  file: StoredFile,
  owner: EmulatorAccount,
  targetMimeType?: string,
): DriveFileResource {
  const user = driveUser(owner)
  const size = contentSize(file.content)
  const binary = isBinaryFile(file.mimeType) && file.content.kind !== 'none'
  const extension =
    binary && file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1) : undefined
  const modifiedTime = new Date(file.modifiedTime).toISOString()
  const resource: DriveFileResource = {
    kind: 'drive#file',
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    starred: file.starred,
    trashed: file.trashed,
    explicitlyTrashed: file.explicitlyTrashed ?? file.trashed,
    parents: [...file.parents],
    spaces: ['drive'],
    version: String(file.version),
    webViewLink: webViewLink(file.id, file.mimeType),
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${file.mimeType}`,
    hasThumbnail: false,
    thumbnailVersion: '0',
    viewedByMe: true,
    viewedByMeTime: modifiedTime,
    createdTime: new Date(file.createdTime).toISOString(),
    modifiedTime,
    modifiedByMeTime: modifiedTime,
    modifiedByMe: true,
    owners: [user],
    lastModifyingUser: user,
    shared: false,
    ownedByMe: true,
    viewersCanCopyContent: true,
    copyRequiresWriterPermission: false,
    writersCanShare: true,
    permissionIds: [owner.permissionId],
    quotaBytesUsed: String(size ?? 0),
    isAppAuthorized: false,
    capabilities: {
      canDownload: file.mimeType !== FOLDER_MIME,
      canEdit: true,
      canCopy: file.mimeType !== FOLDER_MIME,
      canTrash: true,
      canDelete: true,
      canRename: true,
      canShare: true,
      canListChildren: file.mimeType === FOLDER_MIME,
    },
  }
  if (file.driveId !== undefined) {
    resource.driveId = file.driveId
    delete resource.owners
    resource.ownedByMe = false
  }
  if (file.shortcutTargetId !== undefined) {
    resource.shortcutDetails = {
      targetId: file.shortcutTargetId,
      ...(targetMimeType === undefined ? {} : { targetMimeType }),
    }
  }
  if (file.description !== undefined) resource.description = file.description
  if (file.trashedTime !== undefined) resource.trashedTime = new Date(file.trashedTime).toISOString()
  if (binary) {
    resource.webContentLink = `https://drive.google.com/uc?id=${file.id}&export=download`
    resource.originalFilename = file.name
    resource.headRevisionId = `0B${file.id.slice(1, 20)}${file.version}`
    if (extension) {
      resource.fileExtension = extension
      resource.fullFileExtension = extension
    }
  }
  if (file.linkOverrides?.webViewLink !== undefined) resource.webViewLink = file.linkOverrides.webViewLink
  if (file.linkOverrides?.webContentLink !== undefined)
    resource.webContentLink = file.linkOverrides.webContentLink
  if (size !== undefined) resource.size = String(size)
  if (file.checksums) {
    resource.md5Checksum = file.checksums.md5
    resource.sha1Checksum = file.checksums.sha1
    resource.sha256Checksum = file.checksums.sha256
  }
  if (file.content.kind === 'exports') {
    resource.exportLinks = Object.fromEntries(
      Object.keys(file.content.exports).map((mime) => [mime, exportLink(file.id, file.mimeType, mime)]),
    )
  }
  return resource
}
