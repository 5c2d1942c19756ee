import type { Scope } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { CloseIcon, FileIcon } from '#src/components/ui/dashboard-icons.tsx'
import { chip as chipStyle } from '#src/theme/chip.ts'
import { css } from '../../../styled-system/css'

type ScopeChipsProps = {
  scope: Scope | null
  /** A change of the open conversation's documents is being saved: the chips wait for it. */
  saving: boolean
  notice: string | null
  onRemove: (documentId: string) => void
}

/**
 * The documents the chat on screen searches (D70), as chips above the composer, each removable;
 * and the last sentence about them (a document no longer in the library, a change not saved).
 */
export function ScopeChips({ scope, saving, notice, onRemove }: ScopeChipsProps) {
  const documents = scope?.documents ?? []
  if (documents.length === 0 && !notice) return null
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', pt: '2' })}>
      {documents.length > 0 ? (
        <ul
          aria-label="Documents this chat searches"
          className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', fontSize: 'sm' })}
        >
          {documents.map((document) => (
            <li key={document.id} className={chipStyle}>
              <FileIcon size={14} />
              <span className={css({ truncate: true, minW: '0' })}>{document.name}</span>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Remove ${document.name}`}
                disabled={saving}
                onClick={() => onRemove(document.id)}
                className={css({ h: '6', w: '6', flexShrink: '0' })}
              >
                <CloseIcon size={12} />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {notice ? (
        <p role="status" className={css({ fontSize: 'xs', color: 'muted' })}>
          {notice}
        </p>
      ) : null}
    </div>
  )
}
