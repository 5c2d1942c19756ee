import { useId } from 'react'
import type { DocumentStatus, LibraryDocument } from '#contracts/documents.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'
import { RemovedDocuments } from './removed-documents.tsx'
import { useLibrary } from './use-library.ts'

const STATUS_LABELS: Record<DocumentStatus, string> = {
  queued: 'Queued',
  processing: 'Reading',
  ready: 'Ready',
  failed: 'Failed',
  skipped: 'Skipped',
}

/** Static classes (Panda extracts them at build time): the status word's colour. */
const STATUS_CLASSES: Record<DocumentStatus, string> = {
  queued: css({ fontWeight: 'medium', color: 'muted' }),
  processing: css({ fontWeight: 'medium', color: 'accent' }),
  ready: css({ fontWeight: 'medium', color: 'text' }),
  failed: css({ fontWeight: 'medium', color: 'danger' }),
  skipped: css({ fontWeight: 'medium', color: 'muted' }),
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** 1-based pages as ranges: [1, 2, 3, 5] → "1–3, 5"; past a few ranges, the rest as "…". */
function pageRanges(pages: readonly number[]): string {
  const ranges: string[] = []
  let start = pages[0] ?? 0
  pages.forEach((page, i) => {
    const next = pages[i + 1]
    if (next === page + 1) return
    ranges.push(start === page ? String(page) : `${start}–${page}`)
    start = next ?? 0
  })
  return ranges.length > 5 ? `${ranges.slice(0, 5).join(', ')}…` : ranges.join(', ')
}

/** Which of it OCR read: all of it (an image, a scan), or some pages of a PDF. */
function ocrDetail({ ocrPages, pages }: LibraryDocument): string | null {
  if (!ocrPages || ocrPages.length === 0) return null
  if (pages === null || ocrPages.length === pages) return 'read by OCR'
  return `${ocrPages.length === 1 ? 'page' : 'pages'} ${pageRanges(ocrPages)} read by OCR`
}

function details(document: LibraryDocument): string | null {
  const parts: string[] = []
  if (document.pages !== null) parts.push(plural(document.pages, 'page'))
  if (document.chunks !== null) parts.push(plural(document.chunks, 'passage'))
  const ocr = ocrDetail(document)
  if (ocr) parts.push(ocr)
  return parts.length > 0 ? parts.join(', ') : null
}

/**
 * The documents the assistant can answer from, with where each one's reading stands: the overall
 * progress while files are read, a reason for each failed or skipped file (and, for a ready one,
 * what a limit left unread), which of it was read by OCR, Retry and Delete, and the Drive files
 * removed from it, which can be added back.
 * `ingesting`: a Drive ingest is under way, so the panel follows the statuses as they move.
 */
export function LibraryPanel({ ingesting }: { ingesting: boolean }) {
  const { library, problem, remove, retry, restore } = useLibrary(ingesting)
  const headingId = useId()
  if (!library) return null
  const { documents, progress, removed } = library
  return (
    <section aria-labelledby={headingId} className={css({ mb: '6' })}>
      <h2 id={headingId} className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>
        Library
      </h2>
      {progress.running ? (
        <div className={css({ mb: '3' })}>
          <p role="status" className={css({ fontSize: 'sm', color: 'muted', mb: '1' })}>
            {`Reading documents: ${progress.done} of ${progress.total} done`}
          </p>
          <progress
            aria-label="Library progress"
            value={progress.done}
            max={Math.max(progress.total, 1)}
            className={css({ w: 'full' })}
          />
        </div>
      ) : null}
      {problem ? (
        <div className={css({ mb: '3' })}>
          <Alert>{problem}</Alert>
        </div>
      ) : null}
      {documents.length === 0 ? (
        <Card className={css({ color: 'muted', textAlign: 'center', py: '6' })}>
          <p>No documents in your library yet.</p>
        </Card>
      ) : (
        <ul
          aria-label="Library documents"
          className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
        >
          {documents.map((document) => (
            <LibraryItem key={document.id} document={document} onDelete={remove} onRetry={retry} />
          ))}
        </ul>
      )}
      <RemovedDocuments documents={removed} onRestore={restore} />
    </section>
  )
}

type ItemProps = { document: LibraryDocument; onDelete: (id: string) => void; onRetry: (id: string) => void }

function LibraryItem({ document, onDelete, onRetry }: ItemProps) {
  const nameId = useId()
  const info = details(document)
  return (
    <li aria-labelledby={nameId}>
      <Card className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap', py: '3' })}>
        <div className={css({ flex: '1', minW: '12rem' })}>
          <p id={nameId} className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
            {document.name}
          </p>
          <p className={css({ fontSize: 'sm', color: 'muted', overflowWrap: 'anywhere' })}>
            <span className={STATUS_CLASSES[document.status]}>{STATUS_LABELS[document.status]}</span>
            {document.reason ? `: ${document.reason}` : null}
            {info ? ` · ${info}` : null}
          </p>
        </div>
        {document.status === 'failed' ? (
          <Button
            variant="secondary"
            size="sm"
            aria-describedby={nameId}
            onClick={() => onRetry(document.id)}
          >
            Retry
          </Button>
        ) : null}
        {document.status !== 'skipped' ? (
          <Button
            variant="secondary"
            size="sm"
            aria-describedby={nameId}
            onClick={() => onDelete(document.id)}
          >
            Delete
          </Button>
        ) : null}
      </Card>
    </li>
  )
}
