import { Link } from 'wouter'
import { type RegisterRequest, RegisterRequestSchema } from '#contracts/auth.ts'
import { bindField, useContractForm, usePasswordFields } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { paths } from '#src/lib/paths.ts'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { GoogleSignIn } from './google-sign-in.tsx'
import { useAuthOptions } from './use-auth-options.ts'
import { useRegister } from './use-register.ts'

export const SIGNUP_CLOSED = 'Sign-up is closed on this server. Ask its operator for an account.'

const emptyAccount: RegisterRequest = { email: '', password: '', confirmPassword: '' }

/** product §2 Sign-up. One visibility flag drives both toggles: the confirm toggle follows the password's. */
export function RegisterView() {
  const { busy, error, createAccount } = useRegister()
  const passwordField = usePasswordFields()
  const { form, formProps } = useContractForm(RegisterRequestSchema, emptyAccount, createAccount)
  const options = useAuthOptions()

  return (
    <AuthLayout
      title="Create Account"
      footer={
        <>
          Already have an account?{' '}
          <Link href={paths.login} className={linkStyle}>
            Sign in
          </Link>
        </>
      }
    >
      <form className={formStyle} {...formProps}>
        {error ? <Alert>{error}</Alert> : null}
        {options?.signup === 'closed' && !error ? <Alert tone="info">{SIGNUP_CLOSED}</Alert> : null}
        <form.Field name="email">
          {(field) => <TextField label="Email" type="email" autoComplete="email" {...bindField(field)} />}
        </form.Field>
        <form.Field name="password">{passwordField('Password', 'new-password')}</form.Field>
        <form.Field name="confirmPassword">{passwordField('Confirm Password', 'new-password')}</form.Field>
        <Button type="submit" size="lg" block disabled={busy}>
          {busy ? 'Creating account...' : 'Create Account'}
        </Button>
        {options?.google ? <GoogleSignIn /> : null}
      </form>
    </AuthLayout>
  )
}
