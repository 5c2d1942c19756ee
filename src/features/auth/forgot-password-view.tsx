import { Link } from 'wouter'
import { type ForgotPasswordRequest, ForgotPasswordRequestSchema } from '#contracts/account-links.ts'
import { bindField, useContractForm } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { paths } from '#src/lib/paths.ts'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { useForgotPassword } from './use-password-reset.ts'

const empty: ForgotPasswordRequest = { email: '' }

/** /forgot-password (D76): the answer is the same whether or not the email has an account. */
export function ForgotPasswordView() {
  const { busy, sentTo, error, send, again } = useForgotPassword()
  const { form, formProps } = useContractForm(ForgotPasswordRequestSchema, empty, ({ email }) => send(email))
  const footer = (
    <Link href={paths.login} className={linkStyle}>
      Back to sign in
    </Link>
  )
  if (sentTo !== null)
    return (
      <AuthLayout title="Check your mail" footer={footer}>
        <div className={formStyle}>
          <Alert tone="info">
            If an account exists for {sentTo}, a link to choose a new password is on its way. It works once,
            for 30 minutes.
          </Alert>
          <Button variant="secondary" block onClick={again}>
            Use another email
          </Button>
        </div>
      </AuthLayout>
    )
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="We will mail you a link to choose a new one."
      footer={footer}
    >
      <form className={formStyle} {...formProps}>
        {error ? <Alert>{error}</Alert> : null}
        <form.Field name="email">
          {(field) => <TextField label="Email" type="email" autoComplete="email" {...bindField(field)} />}
        </form.Field>
        <Button type="submit" size="lg" block disabled={busy}>
          {busy ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
    </AuthLayout>
  )
}
