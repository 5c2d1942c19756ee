/**
 * A library document's own file, read from the person's Drive for the viewer and "Download"
 * (`GET /documents/{id}/file`): a binary file as it is stored, a Google Docs, Sheets or Slides
 * file as Google's PDF export (they have no bytes of their own). The same 10 MB limit as the
 * ingest, checked while the bytes arrive (drive-api.ts), and a sentence for a file Drive will
 * not give: too large (413), gone (404), refused (502).
 */
import { NotFound, TooLarge, UpstreamFailed } from '../http/domain-errors.ts'
import type { FileReply } from '../http/file-reply.ts'
import { type DriveApi, DriveFileError } from './drive-api.ts'
import { GOOGLE_DOC, GOOGLE_SHEET, GOOGLE_SLIDES, MAX_INGEST_BYTES } from './drive-ingest.ts'

/** Google's own files, which Drive serves only as an export: the viewer shows them as PDFs. */
const EXPORTED_AS_PDF = new Set([GOOGLE_DOC, GOOGLE_SHEET, GOOGLE_SLIDES])

export const DRIVE_FILE_MESSAGES = {
  tooLarge: `The file is larger than ${MAX_INGEST_BYTES / (1024 * 1024)} MB, too large to open here.`,
  gone: 'The file is no longer in your Google Drive.',
} as const

export type DriveDocument = { externalId: string; name: string; mimeType: string }

export async function readDriveFile(
  drive: Pick<DriveApi, 'download' | 'export'>,
  file: DriveDocument,
): Promise<FileReply> {
  const exported = EXPORTED_AS_PDF.has(file.mimeType)
  try {
    const bytes = exported
      ? await drive.export(file.externalId, 'application/pdf', MAX_INGEST_BYTES)
      : await drive.download(file.externalId, MAX_INGEST_BYTES)
    return {
      bytes,
      contentType: exported ? 'application/pdf' : file.mimeType,
      fileName: exported ? `${file.name}.pdf` : file.name,
      disposition: 'inline',
    }
  } catch (error) {
    if (!(error instanceof DriveFileError)) throw error
    if (/larger than|too large/.test(error.message)) throw new TooLarge(DRIVE_FILE_MESSAGES.tooLarge)
    if (/no longer in Google Drive/.test(error.message)) throw new NotFound(DRIVE_FILE_MESSAGES.gone)
    throw new UpstreamFailed(`Google Drive would not give the file: ${error.message}.`)
  }
}
