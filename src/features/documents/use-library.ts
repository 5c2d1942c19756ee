/**
 * Facade for the library panel: the library, the last problem, and adding a removed file back
 * (Retry and Delete are the Documents table's, src/app/dashboard/use-documents-table.ts).
 * It loads the library when shown and follows a Drive ingest while `ingesting` (the screen that
 * composes the panel reads it from the drive feature), so the statuses move while the ingest runs.
 */
import { useEffect, useRef } from 'react'
import { LibraryActor } from './library-actor.ts'

export function useLibrary(ingesting: boolean) {
  const library = LibraryActor.useActorRef()
  const followed = useRef(false)

  useEffect(() => {
    library.send({ type: 'library.load' })
  }, [library])

  useEffect(() => {
    if (ingesting) {
      followed.current = true
      library.send({ type: 'library.watch' })
    } else if (followed.current) {
      followed.current = false
      library.send({ type: 'library.unwatch' })
    }
  }, [ingesting, library])

  return {
    library: LibraryActor.useSelector((snapshot) => snapshot.context.library),
    problem: LibraryActor.useSelector((snapshot) => snapshot.context.problem),
    restore(id: string) {
      library.send({ type: 'library.restore', id })
    },
  }
}
