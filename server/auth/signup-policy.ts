/**
 * Who may create an account (SIGNUP, SIGNUP_DOMAINS; D79): everyone (the spec's behaviour), only
 * addresses at the listed domains, or nobody (the operator creates accounts some other way, and
 * existing accounts still sign in). Sign-up and Sign in with Google ask the same question.
 */
import type { SignupConfig } from '../config.ts'

export type SignupRefusal = 'closed' | 'domain'

export function signupRefusal(email: string, signup: SignupConfig): SignupRefusal | null {
  if (signup.mode === 'closed') return 'closed'
  if (signup.mode === 'open') return null
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
  return signup.domains.includes(domain) ? null : 'domain'
}

export function signupRefusalMessage(refusal: SignupRefusal, signup: SignupConfig): string {
  if (refusal === 'closed') return 'Sign-up is closed on this server. Ask its operator for an account.'
  const domains = signup.domains.map((d) => `@${d}`)
  const list = domains.length === 1 ? domains[0] : `${domains.slice(0, -1).join(', ')} or ${domains.at(-1)}`
  return `Sign-up here is open only to email addresses ending in ${list}.`
}
