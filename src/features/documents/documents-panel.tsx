import type { ReactNode } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { css } from '../../../styled-system/css'
import { RemovedDocuments } from './removed-documents.tsx'
import { useDocumentsPanel } from './use-documents-panel.ts'

/**
 * Where the library's reading stands, around the screen's list of documents (`children`): the
 * overall progress while files are read, the last problem (a failed delete or retry), and the
 * Drive files removed from it, which can be added back.
 */
export function DocumentsPanel({ children }: { children: ReactNode }) {
  const { library, problem, restore } = useDocumentsPanel()
  const progress = library?.progress
  return (
    <>
      {progress?.running ? (
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
      {children}
      <RemovedDocuments documents={library?.removed ?? []} onRestore={restore} />
    </>
  )
}
