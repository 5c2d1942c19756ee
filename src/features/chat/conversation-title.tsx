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
    <RenameForm
      initial={editing}
      onSave={(text) => {
        onRename(text)
        setEditing(null)
      }}
      onCancel={() => setEditing(null)}
    />
  )
}

type RenameFormProps = {
  initial: string
  onSave: (title: string) => void
  onCancel: () => void
  /** From a menu (the phone's conversation bar) the field takes the focus: the button is gone. */
  autoFocus?: boolean
}

/** The title as a field: Enter or Save keeps a non-empty title, Escape or Cancel leaves it. */
export function RenameForm({ initial, onSave, onCancel, autoFocus = false }: RenameFormProps) {
  const [text, setText] = useState(initial)
  return (
    <form
      className={css({ display: 'flex', alignItems: 'center', gap: '2', pb: '3' })}
      onSubmit={(event) => {
        event.preventDefault()
        if (text.trim() !== '') onSave(text)
        else onCancel()
      }}
    >
      <input
        aria-label="Conversation title"
        value={text}
        maxLength={TITLE_MAX_LENGTH}
        // biome-ignore lint/a11y/noAutofocus: the person chose Rename in a menu that closed; typing goes here
        autoFocus={autoFocus}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel()
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
      <Button type="submit" size="sm" disabled={text.trim() === ''}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  )
}
