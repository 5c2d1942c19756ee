import { useEffect, useId, useRef, useState } from 'react'
import {
  DISLIKE_NOTE_MAX_LENGTH,
  DISLIKE_REASONS,
  type DislikeReason,
  type DislikeReasonRequest,
} from '#contracts/chat.ts'
import type { ReasonStatus } from '#machines/chat/chat-selectors.ts'
import { Button } from '#src/components/ui/button.tsx'
import { card } from '#src/theme/card.ts'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css, cx } from '../../../styled-system/css'

/** What each reason reads as (D93). */
export const DISLIKE_REASON_LABELS: Record<DislikeReason, string> = {
  incorrect: 'Not correct',
  unsupported: 'Sources don’t back it up',
  incomplete: 'Incomplete',
  other: 'Something else',
}

type DislikeReasonFormProps = {
  messageId: string
  status: ReasonStatus
  onSend: (messageId: string, why: DislikeReasonRequest) => void
  onSkip: () => void
}

const chipStyle = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: '3',
  py: '1',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'full',
  fontSize: 'sm',
  cursor: 'pointer',
  bg: 'surface',
  _hover: { bg: 'surfaceMuted' },
  '&:has(input:checked)': { borderColor: 'accent', bg: 'brand.50', color: 'text' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

/** The question opens with the focus on its first choice: Dislike pressed by keyboard goes on from there. */
function focusFirstChoice(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>('input')?.focus()
}

/** The focus goes back to the answer's Dislike button when the form closes under it. */
function focusDislike(within: HTMLElement | null) {
  within?.closest('li')?.querySelector<HTMLElement>('button[aria-label="Dislike"]')?.focus()
}

/**
 * Under an answer just disliked (D93): why, if the person wants to say — a reason, a short note,
 * or both — or Skip. The spec's like and dislike stay as they are; this is a call beside them.
 */
export function DislikeReasonForm({ messageId, status, onSend, onSkip }: DislikeReasonFormProps) {
  const [reason, setReason] = useState<DislikeReason | null>(null)
  const [note, setNote] = useState('')
  const root = useRef<HTMLDivElement>(null)
  const ids = useId()
  const thanked = status === 'thanked'
  useEffect(() => {
    // The form gave way to the thanks: the focus that was in it goes back to Dislike.
    const active = document.activeElement
    if (thanked && (active === document.body || active === null)) focusDislike(root.current)
  }, [thanked])
  const skip = () => {
    focusDislike(root.current)
    onSkip()
  }
  if (thanked) {
    return (
      <div ref={root} role="status" className={css({ fontSize: 'sm', color: 'muted' })}>
        Thanks for telling us.
      </div>
    )
  }
  const sending = status === 'sending'
  const text = note.trim()
  const empty = reason === null && text === ''
  return (
    <div ref={root} className={css({ w: 'full', maxW: { base: '90%', md: '80%' } })}>
      <form
        aria-label="Why this answer did not help"
        ref={focusFirstChoice}
        onSubmit={(event) => {
          event.preventDefault()
          if (!empty && !sending)
            onSend(messageId, { ...(reason ? { reason } : {}), ...(text ? { note: text } : {}) })
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') skip()
        }}
        className={cx(
          card({ variant: 'inset' }),
          css({ display: 'flex', flexDirection: 'column', gap: '2' }),
        )}
      >
        <fieldset className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>
            What went wrong? (optional)
          </legend>
          {DISLIKE_REASONS.map((value) => (
            <label key={value} className={chipStyle}>
              <input
                type="radio"
                name={`${ids}-reason`}
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                className={css({ accentColor: 'accent' })}
              />
              {DISLIKE_REASON_LABELS[value]}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${ids}-note`} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          Tell us more (optional)
        </label>
        <textarea
          id={`${ids}-note`}
          rows={2}
          value={note}
          maxLength={DISLIKE_NOTE_MAX_LENGTH}
          aria-describedby={`${ids}-count`}
          onChange={(event) => setNote(event.target.value)}
          className={cx(inlineInput, css({ resize: 'vertical' }))}
        />
        <span id={`${ids}-count`} className={css({ fontSize: 'xs', color: 'muted', alignSelf: 'flex-end' })}>
          {note.length}/{DISLIKE_NOTE_MAX_LENGTH} characters
        </span>
        {status === 'failed' ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
            Your reason could not be sent. Please try again.
          </p>
        ) : null}
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          <Button type="submit" size="sm" disabled={empty || sending}>
            {sending ? 'Sending...' : 'Send'}
          </Button>
          <Button variant="ghost" size="sm" onClick={skip}>
            Skip
          </Button>
        </div>
      </form>
    </div>
  )
}
