import { picker as pickerStyle } from '#src/theme/picker.ts'
import { cx } from '../../../styled-system/css'
import type { DocumentPicker as Picker } from './use-document-picker.ts'

/** The id of the picker's option `index`, for the composer's aria-activedescendant. */
export const pickerOptionId = (listId: string, index: number) => `${listId}-option-${index}`

/**
 * The documents the `#` picker offers (D70), above the composer: a listbox the composer's
 * textarea drives (arrow keys, Enter), or a line saying why there is nothing to choose.
 * Options take the mouse too; they never take the focus from the textarea.
 */
export function DocumentPicker({ picker, listId }: { picker: Picker; listId: string }) {
  const { status, matches, highlighted, query } = picker
  if (status === 'closed') return null
  if (matches.length === 0) {
    return (
      <p role="status" className={cx(pickerStyle.content, pickerStyle.empty)}>
        {status === 'loading'
          ? 'Loading your documents...'
          : status === 'failed'
            ? 'Could not load your documents. Keep typing to try again.'
            : query === ''
              ? 'No document is ready to search yet. Add one under Documents, or with the paperclip.'
              : `No ready document matches “${query}”.`}
      </p>
    )
  }
  return (
    <div id={listId} role="listbox" aria-label="Documents to search" className={pickerStyle.content}>
      {matches.map((document, index) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the textarea's keys drive the options (aria-activedescendant); an option never holds the focus
        <div
          key={document.id}
          id={pickerOptionId(listId, index)}
          role="option"
          aria-selected={index === highlighted}
          tabIndex={-1}
          // Keeps the focus (and the caret) in the textarea.
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => picker.highlight(index)}
          onClick={() => picker.choose(document.id)}
          className={pickerStyle.item}
        >
          {document.name}
        </div>
      ))}
    </div>
  )
}
