/**
 * Facade for the documents panel (DocumentsPanel): the library, the last problem, and adding a removed file back
 * (Retry and Delete are the Documents table's, src/app/dashboard/use-documents-table.ts). The
 * dashboard's wiring actor loads the library when Documents comes on screen and has it follow a
 * Drive ingest (D112), so the statuses move while the ingest runs.
 */
import { DocumentsActor } from './documents-actor.ts'

export function useDocumentsPanel() {
  const documents = DocumentsActor.useActorRef()
  return {
    library: DocumentsActor.useSelector((snapshot) => snapshot.context.library),
    problem: DocumentsActor.useSelector((snapshot) => snapshot.context.problem),
    restore(id: string) {
      documents.send({ type: 'documents.restore', id })
    },
  }
}
