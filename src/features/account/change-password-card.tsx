import { useState } from 'react'
import { type ChangePasswordRequest, ChangePasswordRequestSchema } from '#contracts/account.ts'
import { bindField, useContractForm } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { PasswordField } from '#src/components/ui/password-field.tsx'
import { cardStyle, cardTitleStyle, hintStyle } from './settings-styles.ts'
import { useChangePassword } from './use-account-settings.ts'

const empty: ChangePasswordRequest = { currentPassword: '', password: '', confirmPassword: '' }

/** Change the password (D75): the current one first; every other session is signed out. */
export function ChangePasswordCard() {
  const { busy, error, signedOut, change } = useChangePassword()
  const [visible, setVisible] = useState(false)
  const { form, formProps } = useContractForm(ChangePasswordRequestSchema, empty, (request) => {
    change(request)
    form.reset()
  })
  const field = (name: keyof ChangePasswordRequest, label: string, autoComplete: string) => (
    <form.Field name={name}>
      {(f) => (
        <PasswordField
          label={label}
          autoComplete={autoComplete}
          visible={visible}
          onVisibleChange={setVisible}
          {...bindField(f)}
        />
      )}
    </form.Field>
  )
  return (
    <Card className={cardStyle}>
      <h3 className={cardTitleStyle}>Password</h3>
      <p className={hintStyle}>Changing it signs you out on every other device.</p>
      <form className={cardStyle} {...formProps}>
        {error ? <Alert>{error}</Alert> : null}
        {signedOut !== null ? (
          <Alert tone="info">
            Password changed.{' '}
            {signedOut === 0
              ? 'No other session was signed in.'
              : `${signedOut} other session${signedOut === 1 ? ' was' : 's were'} signed out.`}
          </Alert>
        ) : null}
        {field('currentPassword', 'Current password', 'current-password')}
        {field('password', 'New password', 'new-password')}
        {field('confirmPassword', 'Confirm Password', 'new-password')}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
