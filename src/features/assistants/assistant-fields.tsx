/** The assistant form's own controls (issue 36): a labelled text area, the starter questions, the answer policy. */
import { type ComponentProps, useId } from 'react'
import { type AnswerPolicy, STARTER_QUESTIONS_MAX } from '#contracts/assistants.ts'
import { Button } from '#src/components/ui/button.tsx'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css, cx } from '../../../styled-system/css'

const labelStyle = css({ fontSize: 'sm', fontWeight: 'medium' })
const errorStyle = css({ fontSize: 'sm', color: 'danger', _empty: { display: 'none' } })
export const hintStyle = css({ fontSize: 'xs', color: 'muted' })

type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'id'> & {
  label: string
  hint?: string
  error?: string
}

export function TextAreaField({ label, hint, error, ...props }: TextAreaFieldProps) {
  const id = useId()
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      {hint ? <p className={hintStyle}>{hint}</p> : null}
      <textarea
        id={id}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={css({
          w: 'full',
          p: '3',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'lg',
          bg: 'surface',
          fontSize: 'sm',
          resize: 'vertical',
          _focusVisible: { outline: 'none', borderColor: 'focus', boxShadow: 'focusRing' },
          _invalid: { borderColor: 'danger' },
        })}
        {...props}
      />
      <p id={`${id}-error`} className={errorStyle} aria-live="polite">
        {error}
      </p>
    </div>
  )
}

type StarterQuestionsProps = {
  questions: string[]
  errors: (string | undefined)[]
  onChange: (index: number, text: string) => void
  onAdd: () => void
  onRemove: (index: number) => void
}

export function StarterQuestionsField({
  questions,
  errors,
  onChange,
  onAdd,
  onRemove,
}: StarterQuestionsProps) {
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <legend className={labelStyle}>Starter questions</legend>
      <p className={hintStyle}>Up to {STARTER_QUESTIONS_MAX}, shown as buttons that ask them.</p>
      {questions.map((question, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in the list; their text is being typed
        <div key={index} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <input
              aria-label={`Starter question ${index + 1}`}
              value={question}
              aria-invalid={errors[index] ? true : undefined}
              onChange={(event) => onChange(index, event.target.value)}
              className={inlineInput}
            />
            <Button type="button" variant="ghost" size="sm" onClick={() => onRemove(index)}>
              Remove
            </Button>
          </div>
          <p className={errorStyle} aria-live="polite">
            {errors[index]}
          </p>
        </div>
      ))}
      {questions.length < STARTER_QUESTIONS_MAX ? (
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={onAdd}
          className={css({ alignSelf: 'flex-start' })}
        >
          Add a starter question
        </Button>
      ) : null}
    </fieldset>
  )
}

const POLICIES: { value: AnswerPolicy; label: string; hint: string }[] = [
  {
    value: 'documents-only',
    label: 'Only from its documents',
    hint: 'When its documents do not have the answer, it answers with the fallback answer below.',
  },
  {
    value: 'documents-first',
    label: 'Its documents first, general knowledge allowed',
    hint: 'When its documents do not have the answer, it may answer from what the model knows.',
  },
]

export function AnswerPolicyField({
  value,
  onChange,
}: {
  value: string
  onChange: (policy: AnswerPolicy) => void
}) {
  const name = useId()
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <legend className={labelStyle}>Answer policy</legend>
      {POLICIES.map((policy) => (
        <label
          key={policy.value}
          className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', fontSize: 'sm' })}
        >
          <input
            type="radio"
            name={name}
            value={policy.value}
            checked={value === policy.value}
            onChange={() => onChange(policy.value)}
            className={css({ mt: '1' })}
          />
          <span>
            {policy.label}
            <span className={cx(css({ display: 'block' }), hintStyle)}>{policy.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}
