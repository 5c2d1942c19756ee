/**
 * The API keys' dialogs (issue 38): the new key's form (name, expiry, what it may do, optionally
 * one assistant), the key shown once with Copy, and the question before revoking.
 */
import { useId } from 'react'
import type { CreatedApiKey } from '#contracts/api-keys.ts'
import { bindField, useContractForm } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { CopyableSecret } from '#src/components/ui/copyable-secret.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css } from '../../../styled-system/css'
import {
  ACCESS_CHOICES,
  ApiKeyFormSchema,
  EMPTY_API_KEY_FORM,
  EXPIRY_CHOICES,
} from './api-key-form-schema.ts'
import { hintStyle } from './settings-styles.ts'
import type { ApiKeysFacade } from './use-api-keys.ts'

const columnStyle = css({ display: 'flex', flexDirection: 'column', gap: '4' })
const labelStyle = css({ fontSize: 'sm', fontWeight: 'medium' })

function Choice(props: {
  label: string
  value: string
  onChange: (v: string) => void
  options: readonly { value: string; label: string }[]
}) {
  const id = useId()
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <label htmlFor={id} className={labelStyle}>
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className={inlineInput}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

export function NewApiKeyDialog({ keys }: { keys: ApiKeysFacade }) {
  const { form, formProps } = useContractForm(ApiKeyFormSchema, EMPTY_API_KEY_FORM, keys.create)
  const assistants = [
    { value: '', label: 'Every assistant' },
    ...keys.assistants.map((a) => ({ value: a._id, label: a.name })),
  ]
  return (
    <Dialog title="New API key" onClose={keys.cancel}>
      <form className={columnStyle} {...formProps}>
        {keys.error ? <Alert>{keys.error}</Alert> : null}
        <form.Field name="name">
          {(field) => <TextField label="Name" autoComplete="off" {...bindField(field)} />}
        </form.Field>
        <form.Field name="expiry">
          {(field) => (
            <Choice
              label="Expires after"
              value={field.state.value}
              onChange={field.handleChange}
              options={EXPIRY_CHOICES}
            />
          )}
        </form.Field>
        <form.Field name="access">
          {(field) => (
            <Choice
              label="What it may do"
              value={field.state.value}
              onChange={field.handleChange}
              options={ACCESS_CHOICES}
            />
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.values.access}>
          {(access) =>
            access === 'library' || keys.assistants.length === 0 ? null : (
              <form.Field name="assistantId">
                {(field) => (
                  <Choice
                    label="Assistants it may use"
                    value={field.state.value}
                    onChange={field.handleChange}
                    options={assistants}
                  />
                )}
              </form.Field>
            )
          }
        </form.Subscribe>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button type="button" variant="secondary" onClick={keys.cancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={keys.busy}>
            {keys.busy ? 'Making...' : 'Make the key'}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

export function ShownKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  return (
    <Dialog
      title={`Your key “${created.name}”`}
      onClose={onClose}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <div className={columnStyle}>
        <p className={css({ fontSize: 'sm' })}>
          Copy it now: it will not be shown again. Keep it secret, like a password; anyone who has it can act
          as you within what it may do.
        </p>
        <CopyableSecret value={created.key} copyLabel="Copy the key" testId="new-api-key" />
        <p className={hintStyle}>Send it as the header “Authorization: Bearer {created.prefix}…”.</p>
      </div>
    </Dialog>
  )
}

export function RevokeKeyDialog({ name, keys }: { name: string; keys: ApiKeysFacade }) {
  return (
    <Dialog
      title="Revoke this key?"
      onClose={keys.cancel}
      footer={
        <>
          <Button variant="secondary" onClick={keys.cancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={keys.confirmRevoke} disabled={keys.busy}>
            Revoke
          </Button>
        </>
      }
    >
      <p className={css({ fontSize: 'sm' })}>
        “{name}” stops working at once: every program that uses it is refused from now on.
      </p>
    </Dialog>
  )
}
