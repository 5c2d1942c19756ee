/**
 * The document library as `app.library` (server/library/library-service.ts), the PDF reader every
 * ingest job shares (`app.pdf`: one worker thread, stopped when the app closes), and the
 * 'upload-file' job handler.
 */
import { createPdfExtractor, type PdfExtractor } from '../../ingest/pdf-text.ts'
import { createLibraryService, type LibraryService } from '../../library/library-service.ts'
import { ingestUploadFile, UPLOAD_FILE_JOB } from '../../library/upload.ts'
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
