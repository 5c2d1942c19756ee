/** The document library as `app.library` (server/library/library-service.ts). */
import { createLibraryService, type LibraryService } from '../../library/library-service.ts'
import { sharedPlugin } from '../shared-plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    library: LibraryService
  }
}

export const libraryPlugin = sharedPlugin<{ now: () => Date }>('library', async (app, { now }) => {
  app.decorate('library', createLibraryService({ db: app.db, jobs: app.jobs, now }))
})
