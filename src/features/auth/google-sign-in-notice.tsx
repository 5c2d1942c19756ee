import { useSearch } from 'wouter'
import { GOOGLE_SIGN_IN_NOTICES, type GoogleSignInNotice } from '#contracts/auth.ts'
import { Alert } from '#src/components/ui/alert.tsx'

/**
 * What a Google sign-in that worked has to tell the person, on the page it landed on
 * (`?google=<notice>`, D99): that the account was taken back from whoever registered its address.
 */
export function GoogleSignedInNotice() {
  const notice = new URLSearchParams(useSearch()).get('google')
  if (!notice || !(notice in GOOGLE_SIGN_IN_NOTICES)) return null
  return <Alert tone="info">{GOOGLE_SIGN_IN_NOTICES[notice as GoogleSignInNotice]}</Alert>
}
