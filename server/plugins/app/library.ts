/**
 * The document library as `app.library` (server/documents/library-service.ts), the PDF reader every
 * ingest job shares (`app.pdf`: one worker thread, stopped when the app closes), and the
 * 'upload-file' job handler.
 */

import { createLibraryService, type LibraryService } from '../../documents/library-service.ts'
import { createPdfExtractor, type PdfExtractor } from '../../documents/pdf-text.ts'
import { ingestUploadFile, UPLOAD_FILE_JOB } from '../../documents/upload.ts'
import { sharedPlugin } from '../shared-plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    library: LibraryService
    pdf: PdfExtractor
  }
}

export const libraryPlugin = sharedPlugin<{ now: () => Date }>('library', async (app, { now }) => {
  const pdf = createPdfExtractor()
  app.addHook('onClose', () => pdf.close())
  app.decorate('pdf', pdf)
  app.jobs.handle(UPLOAD_FILE_JOB, (job) => ingestUploadFile(job, { db: app.db, pdf }))
  app.decorate('library', createLibraryService({ db: app.db, jobs: app.jobs, now }))
})
