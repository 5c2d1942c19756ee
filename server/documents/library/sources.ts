/**
 * Where a library document comes from (the `source` of `documents` and `library_documents`) and
 * the background job that reads a document of each source. The library lists, removes, retries
 * and restores documents of every source; reading them is the source's own work (upload.ts here,
 * server/drive/ for Google Drive), which imports these names rather than the other way round.
 */
export const UPLOAD_SOURCE = 'upload'
/** The job kind that reads one uploaded file. */
export const UPLOAD_FILE_JOB = 'upload-file'

export const DRIVE_SOURCE = 'drive'
/** The job kind that reads one Drive file. */
export const DRIVE_FILE_JOB = 'drive-file'
