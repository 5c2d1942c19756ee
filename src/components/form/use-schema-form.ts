/**
 * Form input checked against a contract schema: nothing is flagged until the first submit, then
 * every change re-validates (the errors are derived from the values, never stored). Only valid,
 * parsed values reach `onValid`; what submitting means is the machine's business.
 */
import { type ChangeEvent, type FormEvent, useState } from 'react'
import type { z } from 'zod'

type FieldErrors<K extends string> = Partial<Record<K, string>>

/** The first message per top-level field, in the schema's own words (SPEC §5). */
function fieldErrors<K extends string>(result: z.ZodSafeParseResult<unknown>): FieldErrors<K> {
  const errors: FieldErrors<K> = {}
  if (result.success) return errors
  for (const issue of result.error.issues) {
    const key = issue.path[0] as K | undefined
    if (key !== undefined && errors[key] === undefined) errors[key] = issue.message
  }
  return errors
}

export function useSchemaForm<Values extends Record<string, string>, Output>(
  schema: z.ZodType<Output, Values>,
  initialValues: Values,
  onValid: (value: Output) => void,
) {
  const [values, setValues] = useState(initialValues)
  const [submitted, setSubmitted] = useState(false)
  const errors: FieldErrors<Extract<keyof Values, string>> = submitted
    ? fieldErrors(schema.safeParse(values))
    : {}

  return {
    /** Props for a TextField bound to one value: name, value, onChange and its error. */
    field(name: Extract<keyof Values, string>) {
      return {
        name,
        value: values[name],
        error: errors[name],
        onChange: (event: ChangeEvent<HTMLInputElement>) =>
          setValues((current) => ({ ...current, [name]: event.target.value })),
      }
    },
    handleSubmit(event: FormEvent<HTMLFormElement>) {
      event.preventDefault()
      setSubmitted(true)
      const parsed = schema.safeParse(values)
      if (parsed.success) onValid(parsed.data)
    },
  }
}
