/**
 * What a person does in the consent popup, done over HTTP for server tests: open the
 * authorization URL, pick an account, press Allow or Cancel, and get back the URL Google would
 * redirect the browser to (read `code`, `state`, `scope` or `error` from its searchParams).
 */
import { CONSENT_DECISION_PATH, CONSENT_FIELDS } from './consent-page.ts'

export type ConsentChoice = {
  /** The emulator account that consents (default: login_hint, else the first account). */
  account?: string
  decision?: 'allow' | 'cancel'
  /** Grant only these of the non-sign-in scopes, as unticking boxes does (default: all). */
  grantScopes?: readonly string[]
}

export async function completeConsent(authUrl: string, choice: ConsentChoice = {}): Promise<URL> {
  const page = await fetch(authUrl, { redirect: 'manual' })
  const early = page.headers.get('location')
  if (page.status === 302 && early) return new URL(early)
  const html = await page.text()
  if (page.status !== 200) throw new Error(`The consent page answered ${page.status}: ${html}`)
  const requestId = new RegExp(`name="${CONSENT_FIELDS.requestId}" value="([^"]+)"`).exec(html)?.[1]
  if (!requestId) throw new Error('The consent page carries no request id')

  const form = new URLSearchParams({
    [CONSENT_FIELDS.requestId]: requestId,
    [CONSENT_FIELDS.decision]: choice.decision ?? 'allow',
  })
  if (choice.account) form.set(CONSENT_FIELDS.account, choice.account)
  if (choice.grantScopes) {
    form.set(CONSENT_FIELDS.scopesShown, '1')
    for (const scope of choice.grantScopes) form.append(CONSENT_FIELDS.scope, scope)
  }
  const answer = await fetch(new URL(CONSENT_DECISION_PATH, authUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  })
  const location = answer.headers.get('location')
  if (answer.status !== 302 || !location) {
    throw new Error(`The consent form answered ${answer.status}: ${await answer.text()}`)
  }
  return new URL(location)
}
