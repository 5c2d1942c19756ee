import { type ComponentProps, type ReactNode, useId } from 'react'
import { input } from '#src/theme/input.ts'
import { css } from '../../../styled-system/css'

export type TextFieldProps = Omit<ComponentProps<'input'>, 'id'> & {
  label: string
  /** Shown under the input and announced with it (aria-describedby). */
  error?: string
  /** A control drawn inside the input's right edge, e.g. a show/hide toggle. */
  endAdornment?: ReactNode
}

const fieldStyle = css({ display: 'flex', flexDirection: 'column', gap: '1.5' })
const labelStyle = css({ fontSize: 'sm', fontWeight: 'medium', color: 'text' })
const adornmentStyle = css({ position: 'absolute', top: '50%', right: '1', transform: 'translateY(-50%)' })
// An empty message takes no room: the negative margin cancels the column's gap.
const errorStyle = css({ fontSize: 'sm', color: 'danger', _empty: { mt: '-1.5' } })

/** A labelled input with its validation message. */
export function TextField({ label, error, endAdornment, ...inputProps }: TextFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={fieldStyle}>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <div className={css({ position: 'relative' })}>
        <input
          id={id}
          className={input()}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-adorned={endAdornment ? '' : undefined}
          {...inputProps}
        />
        {endAdornment ? <div className={adornmentStyle}>{endAdornment}</div> : null}
      </div>
      {/* Always present, so the live region is known before a message appears in it. */}
      <p id={errorId} className={errorStyle} aria-live="polite">
        {error}
      </p>
    </div>
  )
}
