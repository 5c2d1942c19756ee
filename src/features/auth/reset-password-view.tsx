import { Link } from 'wouter'
import { ResetPasswordRequestSchema } from '#contracts/account-links.ts'
import { useContractForm, usePasswordFields } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { paths } from '#src/lib/paths.ts'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { useLinkToken, useResetPassword } from './use-password-reset.ts'

export const LINK_INCOMPLETE =
  'This reset link is incomplete. Open it again from the mail, or ask for a new one.'

/** /reset-password?token=… (D76): the sign-up's password rules and texts; success goes to /login. */
export function ResetPasswordView() {
  const token = useLinkToken()
  const { busy, linkRefused, error, reset } = useResetPassword()
  const passwordField = usePasswordFields()
  const { form, formProps } = useContractForm(
    ResetPasswordRequestSchema,
    { token, password: '', confirmPassword: '' },
    reset,
  )
  const footer = (
    <Link href={paths.login} className={linkStyle}>
      Back to sign in
    </Link>
  )
  if (linkRefused || token === '')
    return (
      <AuthLayout title="Choose a new password" footer={footer}>
        <div className={formStyle}>
          <Alert>{error ?? LINK_INCOMPLETE}</Alert>
          <Link href={paths.forgotPassword} className={linkStyle}>
            Ask for a new link
          </Link>
        </div>
      </AuthLayout>
    )
  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Signing in with it signs you out everywhere else."
      footer={footer}
    >
      <form className={formStyle} {...formProps}>
        {error ? <Alert>{error}</Alert> : null}
        <form.Field name="password">{passwordField('Password', 'new-password')}</form.Field>
        <form.Field name="confirmPassword">{passwordField('Confirm Password', 'new-password')}</form.Field>
        <Button type="submit" size="lg" block disabled={busy}>
          {busy ? 'Saving...' : 'Set new password'}
        </Button>
      </form>
    </AuthLayout>
  )
}
