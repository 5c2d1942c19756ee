import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { LibraryPanel } from '#src/features/documents/library-panel.tsx'
import { LibraryProvider } from '#src/features/documents/library-provider.tsx'
import { FileGrid } from '#src/features/drive/file-grid.tsx'
import { useDocuments } from '#src/features/drive/use-documents.ts'
import { css } from '../../../styled-system/css'

const quietCard = css({ textAlign: 'center', color: 'muted', py: '10' })

/**
 * product §2 Documents: 'Ingest Documents' with its result banner, the library (each document's
 * status, live while files are read: library-panel.tsx), and the Drive files. A failed
 * listing replaces everything under the heading (product §8), with the server's reason when it gave one.
 */
export function DocumentsView() {
  const { state, ingesting, ingestOutcome, ingest, download, reload, connect } = useDocuments()

  if (state.status === 'failed') {
    return (
      <section>
        <SectionHeader title="Documents" />
        <Card
          className={css({
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: '3',
            py: '10',
          })}
        >
          <p role="alert" className={css({ fontWeight: 'semibold', color: 'danger' })}>
            Failed to load documents
          </p>
          {state.reason ? (
            <p className={css({ color: 'muted', textAlign: 'center' })}>{state.reason}</p>
          ) : null}
          <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '2' })}>
            {state.reason ? (
              <Button size="sm" onClick={connect}>
                Connect Google Drive
              </Button>
            ) : null}
            <Button variant="secondary" size="sm" onClick={reload}>
              Try again
            </Button>
          </div>
        </Card>
      </section>
    )
  }

  return (
    <section>
      <SectionHeader
        title="Documents"
        actions={
          <Button onClick={ingest} disabled={ingesting}>
            {ingesting ? 'Ingesting...' : 'Ingest Documents'}
          </Button>
        }
      />
      {ingestOutcome ? (
        <div className={css({ mb: '4' })}>
          <Alert tone={ingestOutcome.kind === 'failed' ? 'danger' : 'info'}>{ingestOutcome.message}</Alert>
        </div>
      ) : null}
      <LibraryProvider>
        <LibraryPanel ingesting={ingesting} />
      </LibraryProvider>
      {state.status === 'loading' ? (
        <p role="status" className={quietCard}>
          Loading documents...
        </p>
      ) : state.files.length === 0 ? (
        <Card className={quietCard}>
          <p>No documents found.</p>
        </Card>
      ) : (
        <FileGrid files={state.files} onDownload={download} />
      )}
    </section>
  )
}
