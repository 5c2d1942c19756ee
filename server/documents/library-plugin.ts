/**
 * The document library as `app.library` (server/documents/library-service.ts), the PDF and Word
 * reader every ingest job shares (`app.reader`: one child process, stopped when the app closes),
 * and the 'upload-file' job handler.
 */

import { sharedPlugin } from '../plugins/shared-plugin.ts'
import { createDocumentReader, type DocumentReader } from './document-reader.ts'
import { createLibraryService, type LibraryService } from './library-service.ts'
import { ingestUploadFile, UPLOAD_FILE_JOB } from './upload.ts'

declare module 'fastify' {
  interface FastifyInstance {
    library: LibraryService
    reader: DocumentReader
  }
}

export const libraryPlugin = sharedPlugin<{ now: () => Date }>('library', async (app, { now }) => {
  const reader = createDocumentReader({
    // A file that ends the reader fails with a sentence; the operator sees why the process ended.
    onStop: ({ exit, stderr }) =>
      app.log.warn({ exit, stderr: stderr.slice(-1000) }, 'the document reader process stopped'),
  })
  app.addHook('onClose', () => reader.close())
  app.decorate('reader', reader)
  app.jobs.handle(UPLOAD_FILE_JOB, (job) => ingestUploadFile(job, { db: app.db, reader }))
  app.decorate('library', createLibraryService({ db: app.db, jobs: app.jobs, now }))
})
