import { DocumentsView } from '#src/features/documents/documents-view.tsx'

/** SPEC §2 Documents view: the Drive files, downloads and ingest (documents feature). */
export function DocsSection() {
  return <DocumentsView />
}
