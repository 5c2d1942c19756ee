import { useId } from 'react'
import type { LibraryDocument } from '#contracts/documents.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'

type Props = { documents: readonly LibraryDocument[]; onRestore: (id: string) => void }

/**
 * Drive files the person removed from the library (syncs leave them out), folded away under a
 * summary, each with 'Add back', which reads the file again and lets later syncs follow it.
 */
export function RemovedDocuments({ documents, onRestore }: Props) {
  if (documents.length === 0) return null
  return (
    <details className={css({ mt: '4' })}>
      <summary className={css({ cursor: 'pointer', fontSize: 'sm', color: 'muted' })}>
        {`Removed from the library (${documents.length})`}
      </summary>
      <ul
        aria-label="Removed documents"
        className={css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '2' })}
      >
        {documents.map((document) => (
          <RemovedItem key={document.id} document={document} onRestore={onRestore} />
        ))}
      </ul>
    </details>
  )
}

function RemovedItem({
  document,
  onRestore,
}: {
  document: LibraryDocument
  onRestore: (id: string) => void
}) {
  const nameId = useId()
  return (
    <li aria-labelledby={nameId}>
      <Card className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap', py: '3' })}>
        <p id={nameId} className={css({ flex: '1', minW: '12rem', overflowWrap: 'anywhere' })}>
          {document.name}
        </p>
        <Button
          variant="secondary"
          size="sm"
          aria-describedby={nameId}
          onClick={() => onRestore(document.id)}
        >
          Add back
        </Button>
      </Card>
    </li>
  )
}
