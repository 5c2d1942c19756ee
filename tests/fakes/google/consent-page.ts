/**
 * The consent page and the error pages of accounts.google.com, reduced to what a person (or a
 * Playwright test) needs: pick an emulator account, see the scopes, press 'Allow' or 'Cancel'.
 *
 * The form posts to CONSENT_DECISION_PATH as application/x-www-form-urlencoded:
 *   request_id    (hidden) the pending authorization request; single use
 *   account       radio: the email of the account that consents (default: login_hint, else the first)
 *   decision      'allow' | 'cancel' (the value of the button pressed)
 *   scopes_shown  (hidden) '1' when the form carried the scope checkboxes below
 *   scope         one checkbox per non-sign-in scope, checked; unchecking one grants less, as
 *                 Google's granular consent does. Without scopes_shown every scope is granted.
 */
import { escapeHtml } from './http.ts'
import { describeScope, isBasicScope } from './scopes.ts'

export const CONSENT_DECISION_PATH = '/o/oauth2/v2/auth/decision'

export const CONSENT_FIELDS = {
  requestId: 'request_id',
  account: 'account',
  decision: 'decision',
  scopesShown: 'scopes_shown',
  scope: 'scope',
} as const

export type ConsentPageInput = {
  appName: string
  requestId: string
  scopes: readonly string[]
  accounts: readonly { email: string; name: string }[]
  selectedEmail: string
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f0f4f9; margin: 0; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; border-radius: 1.5rem; padding: 2rem 2.5rem; }
  h1 { font-size: 1.5rem; font-weight: 400; } fieldset { border: 0; padding: 0; margin: 1rem 0; }
  legend { font-weight: 600; margin-bottom: .5rem; } label { display: block; padding: .35rem 0; }
  .actions { display: flex; gap: 1rem; justify-content: flex-end; margin-top: 1.5rem; }
  button { font: inherit; padding: .5rem 1.5rem; border-radius: 1.25rem; border: 1px solid #747775; background: #fff; }
  button[value=allow] { background: #0b57d0; color: #fff; border-color: #0b57d0; }
  .note { color: #444746; font-size: .875rem; }`

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>`
}

export function consentPage(input: ConsentPageInput): string {
  const app = escapeHtml(input.appName)
  const accounts = input.accounts
    .map((a) => {
      const checked = a.email === input.selectedEmail ? ' checked' : ''
      const label = `${escapeHtml(a.name)} (${escapeHtml(a.email)})`
      return `<label><input type="radio" name="${CONSENT_FIELDS.account}" value="${escapeHtml(a.email)}"${checked}> ${label}</label>`
    })
    .join('\n')
  const scopes = input.scopes
    .map((scope) => {
      const text = escapeHtml(describeScope(scope))
      if (isBasicScope(scope)) return `<li>${text}</li>`
      const box = `<input type="checkbox" name="${CONSENT_FIELDS.scope}" value="${escapeHtml(scope)}" checked>`
      return `<li><label>${box} ${text}</label></li>`
    })
    .join('\n')
  return layout(
    `Sign in - Google Accounts (emulator): ${input.appName}`,
    `<h1>${app} wants access to your Google Account</h1>
<form method="post" action="${CONSENT_DECISION_PATH}">
  <input type="hidden" name="${CONSENT_FIELDS.requestId}" value="${escapeHtml(input.requestId)}">
  <input type="hidden" name="${CONSENT_FIELDS.scopesShown}" value="1">
  <fieldset><legend>Choose an account to continue to ${app}</legend>
${accounts}
  </fieldset>
  <fieldset><legend>This will allow ${app} to:</legend>
    <ul>
${scopes}
    </ul>
  </fieldset>
  <p class="note">Google emulator for tests: no password is asked.</p>
  <div class="actions">
    <button type="submit" name="${CONSENT_FIELDS.decision}" value="cancel">Cancel</button>
    <button type="submit" name="${CONSENT_FIELDS.decision}" value="allow">Allow</button>
  </div>
</form>`,
  )
}

/** Google's "Access blocked: Authorization Error … Error 400: redirect_uri_mismatch" page. */
export function authErrorPage(error: string, description: string, code = 400): string {
  return layout(
    `Error ${code}: ${error}`,
    `<h1>Access blocked: Authorization Error</h1>
<p>${escapeHtml(description)}</p>
<p><strong>Error ${code}: ${escapeHtml(error)}</strong></p>`,
  )
}
