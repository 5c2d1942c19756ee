/** The assistant's model settings (issue 36): temperature, the longest answer, and a model when the operator lists some. */
import { useId } from 'react'
import { MAX_ANSWER_TOKENS_LIMIT } from '#contracts/assistants.ts'
import { TextField } from '#src/components/ui/text-field.tsx'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css } from '../../../styled-system/css'
import { hintStyle } from './assistant-fields.tsx'
import { firstMessage } from './assistant-form-schema.ts'
import type { AssistantFormApi } from './use-assistant-form.ts'

export function ModelSettings({ form, models }: { form: AssistantFormApi; models: string[] }) {
  const modelId = useId()
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>Model settings</legend>
      <p className={hintStyle}>Leave a field empty to use the server's default.</p>
      <div
        className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}
      >
        <form.Field name="temperature">
          {(field) => (
            <TextField
              label="Temperature (0 to 2)"
              inputMode="decimal"
              name={field.name}
              value={field.state.value}
              error={firstMessage(field.state.meta.errors)}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
            />
          )}
        </form.Field>
        <form.Field name="maxAnswerTokens">
          {(field) => (
            <TextField
              label={`Longest answer (50 to ${MAX_ANSWER_TOKENS_LIMIT} tokens)`}
              inputMode="numeric"
              name={field.name}
              value={field.state.value}
              error={firstMessage(field.state.meta.errors)}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
            />
          )}
        </form.Field>
      </div>
      {models.length > 0 ? (
        <form.Field name="model">
          {(field) => (
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
              <label htmlFor={modelId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
                Model
              </label>
              <select
                id={modelId}
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
                className={inlineInput}
              >
                <option value="">The server's default</option>
                {models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
            </div>
          )}
        </form.Field>
      ) : null}
    </fieldset>
  )
}
