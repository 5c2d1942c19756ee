/**
 * TanStack Form bound to a contract schema (standard schema, no adapter): nothing is flagged until
 * the first submit, then every change re-validates (revalidateLogic). Only valid, parsed values
 * reach `onValid`; what submitting means is the machine's business. After an invalid submit the
 * first invalid field takes the focus, so its message is read with it (WCAG 3.3.1).
 */
import { revalidateLogic, useForm } from '@tanstack/react-form'
import { type ChangeEvent, createElement, type FormEvent, useRef, useState } from 'react'
import { parse, type z } from 'zod/mini'
import { PasswordField } from '#src/components/ui/password-field.tsx'

type FieldLike = {
  name: string
  state: { value: unknown; meta: { errors: readonly unknown[] } }
  handleChange: (value: string) => void
  handleBlur: () => void
}

/** The first message of a field, in the schema's own words (product §5). */
function firstMessage(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      return error.message
    }
  }
  return undefined
}

/** Props for a TextField bound to one form field: name, value, change/blur and its error. */
export function bindField(field: FieldLike) {
  return {
    name: field.name,
    value: String(field.state.value ?? ''),
    error: firstMessage(field.state.meta.errors),
    onChange: (event: ChangeEvent<HTMLInputElement>) => field.handleChange(event.target.value),
    onBlur: field.handleBlur,
  }
}

export function useContractForm<Values extends Record<string, string>, Output>(
  schema: z.core.$ZodType<Output, Values>,
  defaultValues: Values,
  onValid: (value: Output) => void,
) {
  const formRef = useRef<HTMLFormElement>(null)
  const form = useForm({
    defaultValues,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: schema },
    onSubmit: ({ value }) => onValid(parse(schema, value)),
    onSubmitInvalid: () => {
      // The invalid marks render after this callback; move the focus once they are in the DOM.
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0)
    },
  })
  return {
    form,
    formProps: {
      ref: formRef,
      noValidate: true,
      onSubmit(event: FormEvent<HTMLFormElement>) {
        event.preventDefault()
        void form.handleSubmit()
      },
    },
  }
}

/**
 * Password fields that share one show/hide state (product §2: the confirm toggle follows the
 * password's): `const passwordField = usePasswordFields()`, then
 * `<form.Field name="password">{passwordField('Password', 'new-password')}</form.Field>`.
 */
export function usePasswordFields() {
  const [visible, setVisible] = useState(false)
  return (label: string, autoComplete: 'new-password' | 'current-password') => (field: FieldLike) =>
    createElement(PasswordField, {
      label,
      autoComplete,
      visible,
      onVisibleChange: setVisible,
      ...bindField(field),
    })
}
