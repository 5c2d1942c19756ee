/**
 * The document library: its calls (document-routes.ts), `app.library` (library-service.ts), the
 * reader of PDF, Word, spreadsheet, slide and web files and OCR every ingest job shares (`app.reader`: one child process, stopped when the
 * app closes), and the 'upload-file' job handler.
 */
import fp from 'fastify-plugin'
import { createDocumentReader, type DocumentReader } from './document-reader.ts'
import { documentRoutes } from './document-routes.ts'
import { createLibraryService, type LibraryService } from './library-service.ts'
import { UPLOAD_FILE_JOB } from './sources.ts'
import { ingestUploadFile } from './upload.ts'

declare module 'fastify' {
  interface FastifyInstance {
    library: LibraryService
    reader: DocumentReader
  }
}

export const libraryPlugin = fp<{ now: () => Date }>(
  async (app, { now }) => {
    const reader = createDocumentReader({
      ocr: app.config.ocr,
      // A file that ends the reader fails with a sentence; the operator sees why the process ended.
      onStop: ({ exit, stderr }) =>
        app.log.warn({ exit, stderr: stderr.slice(-1000) }, 'the document reader process stopped'),
    })
    app.addHook('onClose', () => reader.close())
    app.decorate('reader', reader)
    app.jobs.handle(UPLOAD_FILE_JOB, (job) => ingestUploadFile(job, { db: app.db, reader }))
    app.decorate('library', createLibraryService({ db: app.db, jobs: app.jobs, now }))
    await app.register(documentRoutes)
  },
  { name: 'library', dependencies: ['database', 'request-guards', 'authentication', 'jobs'] },
)
