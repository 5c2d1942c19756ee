/**
 * What /login says when a flow sent the person there (its `?google=` or `?notice=`), and after a
 * sign-up (D45; with EMAIL_VERIFICATION=required, that a link is on its way first).
 */
import { useSearch } from 'wouter'
import { GOOGLE_SIGN_IN_MESSAGES, type GoogleSignInOutcome } from '#contracts/auth.ts'

/** Not in the spec (D45): after sign-up /login says why the person is here. */
export const ACCOUNT_CREATED = 'Account created. Sign in with your new password.'
export const ACCOUNT_CREATED_CONFIRM =
  'Account created. Confirm your email with the link we just sent you, then sign in.'

const NOTICES: Record<string, string> = {
  'password-reset': 'Your password is changed and you are signed out everywhere. Sign in with the new one.',
  'email-confirmed': 'Your email is confirmed. Sign in.',
  'account-deleted': 'Your account and everything it held are deleted.',
}

export type LoginNotice = { tone: 'info' | 'danger'; text: string }

export function useLoginNotice(
  registeredEmail: string | undefined,
  emailVerification: boolean,
): LoginNotice | null {
  const params = new URLSearchParams(useSearch())
  const google = params.get('google')
  if (google && google in GOOGLE_SIGN_IN_MESSAGES)
    return { tone: 'danger', text: GOOGLE_SIGN_IN_MESSAGES[google as GoogleSignInOutcome] }
  const notice = NOTICES[params.get('notice') ?? '']
  if (notice) return { tone: 'info', text: notice }
  if (registeredEmail)
    return { tone: 'info', text: emailVerification ? ACCOUNT_CREATED_CONFIRM : ACCOUNT_CREATED }
  return null
}
