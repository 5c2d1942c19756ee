import { DocumentsView } from '#src/app/dashboard/documents-view.tsx'

/** product §2 Documents view: the Drive files, downloads and ingest (documents feature). */
export function DocumentsSection() {
  return <DocumentsView />
}
