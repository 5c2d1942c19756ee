/** The Publish panel's own controls (issue 37): a switch-like checkbox with its hint, and the allowed sites. */
import { type ReactNode, useId } from 'react'
import { ALLOWED_ORIGINS_MAX } from '#contracts/publishing.ts'
import { Button } from '#src/components/ui/button.tsx'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css, cx } from '../../../styled-system/css'
import { hintStyle } from './assistant-fields.tsx'

const labelStyle = css({ fontSize: 'sm', fontWeight: 'medium' })
const errorStyle = css({ fontSize: 'sm', color: 'danger', _empty: { display: 'none' } })

export const NO_SITES = 'The widget works on no website; only the public page.'

type CheckboxFieldProps = {
  label: string
  hint: string
  checked: boolean
  onChange: (checked: boolean) => void
  disabled?: boolean
}

export function CheckboxField({ label, hint, checked, onChange, disabled }: CheckboxFieldProps) {
  const hintId = useId()
  return (
    <label className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', fontSize: 'sm' })}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.checked)}
        className={css({ mt: '1' })}
      />
      <span>
        {label}
        <span id={hintId} className={cx(css({ display: 'block' }), hintStyle)}>
          {hint}
        </span>
      </span>
    </label>
  )
}

type AllowedSitesProps = {
  count: number
  /** A sentence about the list as a whole (too many). */
  listError: string | undefined
  onAdd: () => void
  /** The rows: one SiteRow each, bound to its own field so it shows its own sentence. */
  children: ReactNode
}

export function AllowedSitesField({ count, listError, onAdd, children }: AllowedSitesProps) {
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <legend className={labelStyle}>Allowed sites</legend>
      <p className={hintStyle}>
        The websites whose pages may show the chat widget: an address such as https://www.example.com, or
        https://*.example.com for all its subdomains. Browsers refuse the widget anywhere else.
      </p>
      {count === 0 ? <p className={css({ fontSize: 'sm' })}>{NO_SITES}</p> : null}
      {children}
      <p className={errorStyle} aria-live="polite">
        {listError}
      </p>
      {count < ALLOWED_ORIGINS_MAX ? (
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={onAdd}
          className={css({ alignSelf: 'flex-start' })}
        >
          Add a site
        </Button>
      ) : null}
    </fieldset>
  )
}

type SiteRowProps = {
  index: number
  value: string
  error: string | undefined
  onChange: (origin: string) => void
  onRemove: () => void
}

export function SiteRow({ index, value, error, onChange, onRemove }: SiteRowProps) {
  const errorId = useId()
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
        <input
          aria-label={`Allowed site ${index + 1}`}
          value={value}
          placeholder="https://www.example.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          onChange={(event) => onChange(event.target.value)}
          className={inlineInput}
        />
        <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
          Remove
        </Button>
      </div>
      <p id={errorId} className={errorStyle} aria-live="polite">
        {error}
      </p>
    </div>
  )
}
