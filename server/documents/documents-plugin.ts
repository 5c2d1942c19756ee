/**
 * The documents domain (plugin 'documents', D109), composing its three rooms: reading/ (the reader
 * of PDF, Word, spreadsheet, slide and web files and OCR every ingest job shares, `app.reader`:
 * child processes, stopped when the app closes), index/ (the writer every job's document goes
 * into the index through, `app.writer`, and the language pass over passages indexed before
 * languages were detected, in the background from start until done or close) and library/ (the
 * person's library, `app.library`; its calls, document-routes.ts; one document's passages and
 * file, `app.documentView`; the 'upload-file' job handler).
 */
import fp from 'fastify-plugin'
import { createDocumentWriter, type DocumentWriter, LINGER_MS_POSTGRES } from './index/document-writer.ts'
import { detectPendingLanguages } from './index/language-pass.ts'
import { documentRoutes } from './library/document-routes.ts'
import { createDocumentViewService, type DocumentViewService } from './library/document-view-service.ts'
import { startReadings } from './library/library-repository.ts'
import { createLibraryService, type LibraryService } from './library/library-service.ts'
import { UPLOAD_FILE_JOB } from './library/sources.ts'
import { ingestUploadFile } from './library/upload.ts'
import { createDocumentReader, type DocumentReader } from './reading/document-reader.ts'

declare module 'fastify' {
  interface FastifyInstance {
    library: LibraryService
    reader: DocumentReader
    writer: DocumentWriter
    /** One document's passages and file, for the viewer; sources register how to read their files. */
    documentView: DocumentViewService
  }
}

export const documentsPlugin = fp<{ now: () => Date }>(
  async (app, { now }) => {
    const reader = createDocumentReader({
      ocr: app.config.ocr,
      // A file that ends the reader fails with a sentence; the operator sees why the process ended.
      onStop: ({ exit, stderr }) =>
        app.log.warn({ exit, stderr: stderr.slice(-1000) }, 'the document reader process stopped'),
    })
    app.addHook('onClose', () => reader.close())
    app.decorate('reader', reader)
    const writer = createDocumentWriter({
      db: app.db,
      coming: () => app.jobs.active,
      // On PGlite the writer's statements hold the server's thread: it gives way to other people's
      // requests (D94). A PostgreSQL server runs them beside the server's thread, each in its own
      // backend, and others' statements never wait for them; its transactions cost the server
      // little of its own, so the writer waits less for company (D97).
      ...(app.database.kind === 'postgres'
        ? { lingerMs: LINGER_MS_POSTGRES }
        : { others: app.activity.others }),
    })
    app.decorate('writer', writer)
    const startReading = startReadings(app.db)
    app.jobs.handle(UPLOAD_FILE_JOB, (job) =>
      ingestUploadFile(job, { db: app.db, reader, writer, startReading }),
    )
    app.decorate('library', createLibraryService({ db: app.db, jobs: app.jobs, writer, now }))
    app.decorate('documentView', createDocumentViewService(app.db))
    const stopLanguagePass = new AbortController()
    let languagePass: Promise<void> = Promise.resolve()
    app.addHook('onReady', async () => {
      languagePass = detectPendingLanguages(app.db, writer, stopLanguagePass.signal)
        .then(({ documents, passages }) => {
          if (documents > 0)
            app.log.info({ documents, passages }, 'earlier documents re-indexed in their own languages')
        })
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'the language pass stopped; it resumes at the next start'),
        )
    })
    app.addHook('onClose', async () => {
      stopLanguagePass.abort()
      await languagePass
    })
    await app.register(documentRoutes)
  },
  {
    name: 'documents',
    dependencies: [
      'database',
      'request-activity',
      'request-guards',
      'authentication',
      'api-keys',
      'jobs',
      'rate-limit',
    ],
  },
)
