import { useState } from 'react'
import { Link } from 'wouter'
import { type LoginRequest, LoginRequestSchema } from '#contracts/auth.ts'
import { bindField, useContractForm } from '#src/components/form/use-contract-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { PasswordField } from '#src/components/ui/password-field.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { GoogleSignIn } from './google-sign-in.tsx'
import { useLoginNotice } from './login-notice.ts'
import { useRegisteredEmail } from './use-auth.ts'
import { useAuthOptions } from './use-auth-options.ts'
import { useLogin } from './use-login.ts'

const emptyCredentials: LoginRequest = { email: '', password: '' }
const forgotStyle = css({ alignSelf: 'flex-end', fontSize: 'sm', mt: '-2' })

/** product §2 Sign-in: product §5 rules come from the contract schema; §8 errors from the login machine. */
export function LoginView() {
  const { busy, error, signIn } = useLogin()
  const [passwordVisible, setPasswordVisible] = useState(false)
  const registeredEmail = useRegisteredEmail()
  const options = useAuthOptions()
  const notice = useLoginNotice(registeredEmail, options?.emailVerification ?? false)
  const { form, formProps } = useContractForm(
    LoginRequestSchema,
    { ...emptyCredentials, email: registeredEmail ?? '' },
    signIn,
  )

  return (
    <AuthLayout
      title="Welcome Back"
      subtitle="Sign in to your dashboard"
      footer={
        <>
          Don't have an account?{' '}
          <Link href={paths.register} className={linkStyle}>
            Sign up
          </Link>
        </>
      }
    >
      <form className={formStyle} {...formProps}>
        {error ? <Alert>{error}</Alert> : null}
        {notice && !error ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        <form.Field name="email">
          {(field) => <TextField label="Email" type="email" autoComplete="email" {...bindField(field)} />}
        </form.Field>
        <form.Field name="password">
          {(field) => (
            <PasswordField
              label="Password"
              autoComplete="current-password"
              visible={passwordVisible}
              onVisibleChange={setPasswordVisible}
              {...bindField(field)}
            />
          )}
        </form.Field>
        {options?.passwordReset === false ? null : (
          <Link href={paths.forgotPassword} className={`${linkStyle} ${forgotStyle}`}>
            Forgot password?
          </Link>
        )}
        <Button type="submit" size="lg" block disabled={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
        {options?.google ? <GoogleSignIn /> : null}
      </form>
    </AuthLayout>
  )
}
