import { type KeyboardEvent, type Ref, useEffect, useId, useImperativeHandle, useRef } from 'react'
import { MESSAGE_MAX_LENGTH } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { CloseIcon, FileIcon, PaperclipIcon, SendIcon } from '#src/components/ui/dashboard-icons.tsx'
import { css } from '../../../styled-system/css'
import { DocumentPicker, pickerOptionId } from './document-picker.tsx'
import { takeAskedFocus } from './focus-message-box.ts'
import type { DocumentPicker as Picker } from './use-document-picker.ts'

/** What the conversation header may ask of the composer. */
export type ComposerHandle = {
  /** Types a `#` at the end of the draft, in the textarea: the document picker opens. */
  startPicking(): void
}

type ChatComposerProps = {
  disabled: boolean
  /** The text typed so far (the chat machine keeps it, so a failed message can come back). */
  draft: string
  onDraft: (text: string) => void
  /** True when the message was taken (the machine then clears the draft). */
  onSend: (content: string) => boolean
  onAttach: () => void
  /** An answer is being written: Stop shows instead of Send. */
  streaming: boolean
  onStop: () => void
  /** The file attached in a new chat, shown as a chip until it goes with the first message. */
  attachment: { name: string; error: string | null } | null
  /** The attached file is on its way (the first message was sent). */
  attaching: boolean
  onDetach: () => void
  /** The `#` document picker (D70), fed with what is typed at the caret. */
  picker: Picker
  handle?: Ref<ComposerHandle>
}

/**
 * product §2, §5: type, Enter sends, Shift+Enter breaks the line; the paperclip opens the upload
 * dialog; while an answer is written, Stop ends it. A `#` opens the document picker (D70): while
 * it offers documents the arrow keys, Enter and Escape are its.
 */
const boxStyle = css({
  position: 'relative',
  display: 'flex',
  alignItems: 'flex-end',
  gap: '2',
  p: '2',
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  boxShadow: 'sm',
  _focusWithin: { borderColor: 'brand.500', boxShadow: 'focusRing' },
})

const messageBoxStyle = css({
  flex: '1',
  minW: '0',
  resize: 'none',
  fieldSizing: 'content',
  maxH: '40',
  px: '2',
  py: '2',
  bg: 'transparent',
  _focusVisible: { outline: 'none' },
  _disabled: { cursor: 'not-allowed', opacity: 0.7 },
})

export function ChatComposer({
  disabled,
  draft,
  onDraft,
  onSend,
  onAttach,
  streaming,
  onStop,
  attachment,
  attaching,
  onDetach,
  picker,
  handle,
}: ChatComposerProps) {
  const input = useRef<HTMLTextAreaElement>(null)
  const listId = useId()
  // Disabling the focused input drops focus; give it back when the reply has come.
  useEffect(() => {
    if (!disabled && document.activeElement === document.body) input.current?.focus()
  }, [disabled])

  useImperativeHandle(
    handle,
    () => ({
      startPicking() {
        const text = draft === '' || /\s$/.test(draft) ? `${draft}#` : `${draft} #`
        onDraft(text)
        picker.follow(text, text.length)
        const field = input.current
        if (!field) return
        field.focus()
        // After React has put the new text in: the caret goes after the `#`.
        requestAnimationFrame(() => field.setSelectionRange(text.length, text.length))
      },
    }),
    [draft, onDraft, picker],
  )

  function submit() {
    onSend(draft)
  }
  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // isComposing: keys that confirm an IME composition (Japanese, Chinese…) are the IME's.
    if (event.nativeEvent.isComposing) return
    if (!event.shiftKey && picker.takesKey(event.key)) {
      event.preventDefault()
      return
    }
    if (event.key !== 'Enter' || event.shiftKey) return
    event.preventDefault()
    submit()
  }
  const offering = picker.status !== 'closed' && picker.matches.length > 0

  return (
    <form
      className={css({ pt: '2' })}
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      {attachment ? (
        <AttachmentChip attachment={attachment} attaching={attaching} onDetach={onDetach} />
      ) : null}
      <div className={boxStyle}>
        <DocumentPicker picker={picker} listId={listId} />
        <Button variant="ghost" size="icon" aria-label="Attach file" onClick={onAttach}>
          <PaperclipIcon />
        </Button>
        <textarea
          ref={(field) => {
            input.current = field
            takeAskedFocus(field)
          }}
          name="message"
          aria-label="Message"
          placeholder="Type your message..."
          rows={1}
          maxLength={MESSAGE_MAX_LENGTH}
          value={draft}
          disabled={disabled}
          aria-autocomplete="list"
          aria-controls={offering ? listId : undefined}
          aria-activedescendant={offering ? pickerOptionId(listId, picker.highlighted) : undefined}
          onChange={(event) => {
            onDraft(event.target.value)
            picker.follow(event.target.value, event.target.selectionStart)
          }}
          // The caret moved (a click, Home/End): the picker follows the `#` it is now at, if any.
          onSelect={(event) => picker.follow(event.currentTarget.value, event.currentTarget.selectionStart)}
          onBlur={() => picker.follow('', 0)}
          onKeyDown={handleKeyDown}
          className={messageBoxStyle}
        />
        {streaming ? (
          <Button type="button" size="sm" variant="secondary" onClick={onStop}>
            <StopIcon />
            Stop
          </Button>
        ) : (
          <Button
            type="submit"
            size="icon"
            aria-label="Send message"
            disabled={disabled || draft.trim() === ''}
          >
            <SendIcon size={16} />
          </Button>
        )}
      </div>
      <p className={css({ mt: '2', fontSize: 'xs', color: 'muted', textAlign: 'center' })}>
        Press Enter to send, Shift + Enter for new line
      </p>
    </form>
  )
}

/** The file that goes with the first message of a new chat; removable until it is sent. */
function AttachmentChip({
  attachment,
  attaching,
  onDetach,
}: {
  attachment: { name: string; error: string | null }
  attaching: boolean
  onDetach: () => void
}) {
  return (
    <div className={css({ mb: '2', display: 'flex', flexDirection: 'column', gap: '1' })}>
      <span
        className={css({
          display: 'inline-flex',
          alignItems: 'center',
          gap: '2',
          alignSelf: 'flex-start',
          maxW: 'full',
          pl: '3',
          pr: '1',
          py: '1',
          fontSize: 'sm',
          bg: 'surface',
          borderWidth: '1px',
          borderColor: attachment.error ? 'dangerBorder' : 'border',
          borderRadius: 'full',
        })}
      >
        <FileIcon size={14} />
        <span className={css({ truncate: true, minW: '0' })}>{attachment.name}</span>
        {attaching ? (
          <span role="status" className={css({ color: 'muted', pr: '2', whiteSpace: 'nowrap' })}>
            Uploading...
          </span>
        ) : (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${attachment.name}`}
            className={css({ h: '7', w: '7' })}
            onClick={onDetach}
          >
            <CloseIcon size={14} />
          </Button>
        )}
      </span>
      {attachment.error ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
          {attachment.error}
        </p>
      ) : null}
    </div>
  )
}

function StopIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  )
}
