import { type ReactNode, useState } from 'react'
import { TITLE_MAX_LENGTH } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { css } from '../../../styled-system/css'

type ConversationTitleProps = {
  title: string
  onRename: (title: string) => void
  /** Controls the screen adds beside the title (Export, Share). */
  actions?: ReactNode
}

/** The open conversation's title above it; Rename edits it in place (Enter saves, Escape cancels). */
export function ConversationTitle({ title, onRename, actions }: ConversationTitleProps) {
  const [editing, setEditing] = useState<string | null>(null)
  if (editing === null) {
    return (
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: '2',
          pb: '3',
          minW: '0',
        })}
      >
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', truncate: true })}>{title}</h2>
        <Button variant="ghost" size="sm" onClick={() => setEditing(title)}>
          Rename
        </Button>
        {actions ? <div className={css({ ml: 'auto', flexShrink: '0' })}>{actions}</div> : null}
      </div>
    )
  }
  return (
    <form
      className={css({ display: 'flex', alignItems: 'center', gap: '2', pb: '3' })}
      onSubmit={(event) => {
        event.preventDefault()
        if (editing.trim() !== '') onRename(editing)
        setEditing(null)
      }}
    >
      <input
        aria-label="Conversation title"
        value={editing}
        maxLength={TITLE_MAX_LENGTH}
        onChange={(event) => setEditing(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setEditing(null)
        }}
        className={css({
          flex: '1',
          minW: '0',
          px: '2',
          py: '1',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'md',
          bg: 'surface',
        })}
      />
      <Button type="submit" size="sm" disabled={editing.trim() === ''}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
        Cancel
      </Button>
    </form>
  )
}
