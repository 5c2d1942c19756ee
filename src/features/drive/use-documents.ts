/** Facade for the Documents screen: which state to show, the ingest banner, and the intents. */
import type { DriveFile } from '#contracts/drive.ts'
import type { IngestOutcome } from '#machines/drive/drive-types.ts'
import { DriveActor } from '#src/features/drive/drive-actor.ts'
import { useListDriveOnShow } from '#src/features/drive/use-drive.ts'

export type DocumentsState =
  | { status: 'loading' }
  | { status: 'failed'; reason: string | null }
  /** This server has no Google OAuth client (D133): the library alone, nothing to retry. */
  | { status: 'unavailable' }
  | { status: 'ready'; files: DriveFile[] }

export function useDocuments() {
  useListDriveOnShow()
  const drive = DriveActor.useActorRef()
  const state = DriveActor.useSelector((snapshot): DocumentsState => {
    const { files, loadFailure, configured } = snapshot.context
    if (!configured) return { status: 'unavailable' }
    if (loadFailure) return { status: 'failed', reason: loadFailure.reason }
    // A reload keeps the last list on screen; only the first listing shows 'Loading documents...'.
    if (files === null) return { status: 'loading' }
    return { status: 'ready', files }
  }, sameState)
  return {
    state,
    ingesting: DriveActor.useSelector((snapshot) => snapshot.hasTag('ingesting')),
    ingestOutcome: DriveActor.useSelector((snapshot): IngestOutcome | null => snapshot.context.ingestOutcome),
    ingest() {
      drive.send({ type: 'drive.ingest' })
    },
    /** Call straight from the click: the download's tab must open while the click is handled. */
    download(fileId: string) {
      drive.send({ type: 'drive.download', fileId })
    },
    reload() {
      drive.send({ type: 'drive.list' })
    },
    connect() {
      drive.send({ type: 'drive.connect' })
    },
  }
}

function sameState(a: DocumentsState, b: DocumentsState): boolean {
  if (a.status === 'ready' && b.status === 'ready') return a.files === b.files
  if (a.status === 'failed' && b.status === 'failed') return a.reason === b.reason
  return a.status === b.status
}
