/**
 * Facade for the library panel: the library, the last problem, and adding a removed file back
 * (Retry and Delete are the Documents table's, src/app/dashboard/use-documents-table.ts). The
 * dashboard's wiring actor loads the library when Documents comes on screen and has it follow a
 * Drive ingest (D112), so the statuses move while the ingest runs.
 */
import { LibraryActor } from './library-actor.ts'

export function useLibrary() {
  const library = LibraryActor.useActorRef()
  return {
    library: LibraryActor.useSelector((snapshot) => snapshot.context.library),
    problem: LibraryActor.useSelector((snapshot) => snapshot.context.problem),
    restore(id: string) {
      library.send({ type: 'library.restore', id })
    },
  }
}
