import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { DocumentsPanel } from '#src/features/documents/documents-panel.tsx'
import { useDocuments } from '#src/features/drive/use-documents.ts'
import { css } from '../../../styled-system/css'
import { DocumentsTable } from './documents-table.tsx'
import { DocumentsToolbar } from './documents-toolbar.tsx'
import { type DocumentsTableApi, useDocumentsTable } from './use-documents-table.ts'

const quietCard = css({ textAlign: 'center', color: 'muted', py: '10' })
const quietLine = css({ fontSize: 'sm', color: 'muted', mb: '4' })

/** Said once, quietly, where Drive's files would be: there is nothing to retry or connect (D133). */
export const NO_DRIVE_HERE =
  'This server has no Google Drive connection, so your library holds the files you upload.'

/**
 * product §2 Documents: 'Ingest Documents' with its result banner, then every file (the library's
 * and the Drive's) in one table with search, filters and sort (D89), the library's reading
 * progress live above it. A failed Drive listing says so (product §8), with the server's reason
 * when it gave one, in the Drive files' place: the library (uploads included) stays (D70). A
 * server without Google shows the library alone, with one quiet line and no Ingest (D133).
 */
export function DocumentsView() {
  const { state, ingesting, ingestOutcome, ingest, reload, connect } = useDocuments()

  return (
    <section>
      <SectionHeader
        title="Documents"
        actions={
          state.status === 'unavailable' ? null : (
            <Button onClick={ingest} disabled={ingesting}>
              {ingesting ? 'Ingesting...' : 'Ingest Documents'}
            </Button>
          )
        }
      />
      {state.status === 'unavailable' ? <p className={quietLine}>{NO_DRIVE_HERE}</p> : null}
      {ingestOutcome ? (
        <div className={css({ mb: '4' })}>
          <Alert tone={ingestOutcome.kind === 'failed' ? 'danger' : 'info'}>{ingestOutcome.message}</Alert>
        </div>
      ) : null}
      {state.status === 'failed' ? (
        <DriveListingFailed reason={state.reason} onConnect={connect} onRetry={reload} />
      ) : null}
      <DocumentsPanel>
        {state.status === 'loading' ? (
          <p role="status" className={quietCard}>
            Loading documents...
          </p>
        ) : (
          <DocumentsList ingesting={ingesting} />
        )}
      </DocumentsPanel>
    </section>
  )
}

/** The Drive listing failed: the spec's sentence, the server's reason, and what to do about it. */
function DriveListingFailed({
  reason,
  onConnect,
  onRetry,
}: {
  reason: string | null
  onConnect: () => void
  onRetry: () => void
}) {
  return (
    <Card
      role="region"
      aria-label="Google Drive files"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: '3',
        py: '6',
        mb: '4',
      })}
    >
      <p role="alert" className={css({ fontWeight: 'semibold', color: 'danger' })}>
        Failed to load documents
      </p>
      {reason ? <p className={css({ color: 'muted', textAlign: 'center' })}>{reason}</p> : null}
      <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '2' })}>
        {reason ? (
          <Button size="sm" onClick={onConnect}>
            Connect Google Drive
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </Card>
  )
}

/** The table, or what to say when there is nothing to list (or nothing matches). */
function DocumentsList({ ingesting }: { ingesting: boolean }) {
  const table = useDocumentsTable()
  if (table.all.length === 0) {
    return (
      <Card className={quietCard}>
        <p>No documents found.</p>
      </Card>
    )
  }
  return (
    <>
      {table.beforeFirstIngest && !ingesting ? <FirstIngest count={table.all.length} /> : null}
      <DocumentsToolbar table={table} />
      {table.selected.length > 0 ? <SelectedDocuments table={table} /> : null}
      {table.page.total === 0 ? (
        <Card className={quietCard}>
          <p>No documents match your search and filters.</p>
          <Button variant="secondary" size="sm" className={css({ mt: '3' })} onClick={table.clearFilters}>
            Clear search and filters
          </Button>
        </Card>
      ) : (
        <DocumentsTable table={table} />
      )}
    </>
  )
}

/** What to do with the documents selected in the table (D70): ask about them together, or let go. */
function SelectedDocuments({ table }: { table: DocumentsTableApi }) {
  const count = table.selected.length
  return (
    <div
      role="toolbar"
      aria-label="Selected documents"
      className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2', mb: '3' })}
    >
      <Button size="sm" onClick={table.askAboutSelected}>
        {`Ask about the selected documents (${count})`}
      </Button>
      <Button variant="ghost" size="sm" onClick={table.clearSelection}>
        Clear selection
      </Button>
    </div>
  )
}

/** Before the first ingest, one thing to do: the header's 'Ingest Documents'. */
function FirstIngest({ count }: { count: number }) {
  return (
    <Card className={css({ mb: '4', borderColor: 'brand.100', bg: 'brand.50' })}>
      <h2 className={css({ fontWeight: 'semibold', mb: '1' })}>Your library is empty</h2>
      <p className={css({ fontSize: 'sm' })}>
        {`Google Drive lists ${count} ${count === 1 ? 'file' : 'files'} below. Press Ingest Documents to read them into your library, so the assistant can answer from them.`}
      </p>
    </Card>
  )
}
