import { type ChangePasswordRequest, ChangePasswordRequestSchema } from '#contracts/account.ts'
import { useContractForm, usePasswordFields } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { cardStyle, cardTitleStyle, hintStyle } from './settings-styles.ts'
import { useChangePassword } from './use-account-settings.ts'

const empty: ChangePasswordRequest = { currentPassword: '', password: '', confirmPassword: '' }

/**
 * Change the password (D81): the current one first; every other session is signed out. The form
 * is drawn anew after each change that worked (its key), so a refusal keeps what was typed.
 */
export function ChangePasswordCard() {
  const { busy, error, signedOut, changes, change } = useChangePassword()
  return (
    <Card className={cardStyle}>
      <h3 className={cardTitleStyle}>Password</h3>
      <p className={hintStyle}>Changing it signs you out on every other device.</p>
      {error ? <Alert>{error}</Alert> : null}
      {signedOut !== null ? (
        <Alert tone="info">
          Password changed.{' '}
          {signedOut === 0
            ? 'No other session was signed in.'
            : `${signedOut} other session${signedOut === 1 ? ' was' : 's were'} signed out.`}
        </Alert>
      ) : null}
      <ChangePasswordForm key={changes} busy={busy} onChange={change} />
    </Card>
  )
}

function ChangePasswordForm({
  busy,
  onChange,
}: {
  busy: boolean
  onChange: (request: ChangePasswordRequest) => void
}) {
  const passwordField = usePasswordFields()
  const { form, formProps } = useContractForm(ChangePasswordRequestSchema, empty, onChange)
  return (
    <form className={cardStyle} {...formProps}>
      <form.Field name="currentPassword">{passwordField('Current password', 'current-password')}</form.Field>
      <form.Field name="password">{passwordField('New password', 'new-password')}</form.Field>
      <form.Field name="confirmPassword">{passwordField('Confirm Password', 'new-password')}</form.Field>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing...' : 'Change password'}
        </Button>
      </div>
    </form>
  )
}
