/** Library documents and Drive files for the Documents table's tests (machine and view), each named, the rest defaults. */
import type { LibraryDocument } from '#contracts/documents.ts'
import type { DriveFile } from '#contracts/drive.ts'

export function libraryDocument(name: string, fields: Partial<LibraryDocument> = {}): LibraryDocument {
  return {
    id: `lib-${name}`,
    name,
    source: 'upload',
    mimeType: 'application/pdf',
    status: 'ready',
    reason: null,
    pages: 1,
    chunks: 1,
    updatedAt: '2026-03-01T10:00:00.000Z',
    webViewLink: null,
    ocrPages: null,
    ...fields,
  }
}

export function driveFile(name: string, fields: Partial<DriveFile> = {}): DriveFile {
  return {
    id: `drive-${name}`,
    name,
    mimeType: 'application/pdf',
    modifiedTime: '2026-02-01T10:00:00.000Z',
    webContentLink: null,
    webViewLink: null,
    ...fields,
  }
}
