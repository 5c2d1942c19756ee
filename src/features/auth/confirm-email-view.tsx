import { Link } from 'wouter'
import { Alert } from '#src/components/ui/alert.tsx'
import { loginNotices, paths } from '#src/lib/paths.ts'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { useConfirmEmail, useLinkToken } from './use-password-reset.ts'

/** /confirm-email?token=… (D76): confirms at once; signing in afterwards works. */
export function ConfirmEmailView() {
  const { busy, confirmed, error } = useConfirmEmail(useLinkToken())
  const footer = (
    <Link href={confirmed ? loginNotices.emailConfirmed : paths.login} className={linkStyle}>
      Sign in
    </Link>
  )
  return (
    <AuthLayout title="Confirm your email" footer={footer}>
      <div className={formStyle} aria-live="polite">
        {busy ? <p>Confirming...</p> : null}
        {confirmed ? <Alert tone="info">Your email is confirmed. You can sign in now.</Alert> : null}
        {error ? <Alert>{error}</Alert> : null}
      </div>
    </AuthLayout>
  )
}
