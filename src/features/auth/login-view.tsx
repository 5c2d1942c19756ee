import { useState } from 'react'
import { Link } from 'wouter'
import { type LoginRequest, LoginRequestSchema } from '#contracts/auth.ts'
import { paths } from '#src/app/paths.ts'
import { useSchemaForm } from '#src/components/form/use-schema-form.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { PasswordField } from '#src/components/ui/password-field.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { AuthLayout, formStyle, linkStyle } from './auth-layout.tsx'
import { useLogin } from './use-login.ts'

const emptyCredentials: LoginRequest = { email: '', password: '' }

/** SPEC §2 Sign-in: SPEC §5 rules come from the contract schema; §8 errors from the login machine. */
export function LoginView() {
  const { busy, error, signIn } = useLogin()
  const [passwordVisible, setPasswordVisible] = useState(false)
  const form = useSchemaForm(LoginRequestSchema, emptyCredentials, signIn)

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
      <form noValidate className={formStyle} onSubmit={form.handleSubmit}>
        {error ? <Alert>{error}</Alert> : null}
        <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          visible={passwordVisible}
          onVisibleChange={setPasswordVisible}
          {...form.field('password')}
        />
        <Button type="submit" size="lg" block disabled={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthLayout>
  )
}
