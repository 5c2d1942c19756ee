import type { Scope } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { css } from '../../../styled-system/css'

/**
 * What the chat on screen searches, in one line (D70). With an assistant (issue 36) the whole is
 * its knowledge, never the whole library.
 */
export function scopeSummary(scope: Scope | null, assistant: string | null = null): string {
  if (scope === null)
    return assistant === null ? 'Searching: all your documents' : `Searching: the documents of ${assistant}`
  const n = scope.documents.length
  if (n === 0) return 'Searching: no documents (the ones chosen for this conversation were deleted)'
  return `Searching: ${n} document${n === 1 ? '' : 's'}`
}

type ConversationScopeProps = {
  scope: Scope | null
  /** The name of the conversation's assistant, if it has one. */
  assistant?: string | null
  saving: boolean
  /** Opens the composer's document picker. */
  onChoose: () => void
  /** Back to the whole library. */
  onSearchEverything: () => void
}

/**
 * The conversation header's scope line (D70): what it searches, "Choose documents" (the composer's
 * `#` picker) and, when it is limited, "Search all documents".
 */
export function ConversationScope({
  scope,
  assistant = null,
  saving,
  onChoose,
  onSearchEverything,
}: ConversationScopeProps) {
  return (
    <div
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: '2',
        pb: '3',
        fontSize: 'sm',
        color: 'muted',
      })}
    >
      <p title={scope?.documents.map((d) => d.name).join(', ')}>{scopeSummary(scope, assistant)}</p>
      <Button variant="ghost" size="sm" onClick={onChoose}>
        Choose documents
      </Button>
      {scope === null ? null : (
        <Button variant="ghost" size="sm" disabled={saving} onClick={onSearchEverything}>
          Search all documents
        </Button>
      )}
    </div>
  )
}
