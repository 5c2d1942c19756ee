/**
 * Facade for the library panel: the documents, the progress, the last problem, and the intents.
 * It loads the library when shown and follows the Drive ingest the person starts (the drive actor
 * says when one is under way), so the statuses move while the ingest runs.
 */
import { useEffect, useRef } from 'react'
import { DriveActor } from '#src/features/drive/drive-actor.ts'
import { LibraryActor } from './library-actor.ts'

export function useLibrary() {
  const library = LibraryActor.useActorRef()
  const ingesting = DriveActor.useSelector((snapshot) => snapshot.hasTag('ingesting'))
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
    remove(id: string) {
      library.send({ type: 'library.delete', id })
    },
    retry(id: string) {
      library.send({ type: 'library.retry', id })
    },
  }
}
