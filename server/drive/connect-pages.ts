/**
 * The small HTML pages the Drive connect window shows (it is a browser window, not a fetch): the
 * result of the callback, or why the connection could not start. Each page carries one inline
 * script, allowed by a per-response CSP nonce and nothing else: a Close button, and on success a
 * postMessage to the app window that opened it, aimed at the app's own origin only.
 */
import { randomBytes } from 'node:crypto'
import { DRIVE_CONNECTED_MESSAGE } from '#contracts/drive.ts'
import type { ConnectOutcome } from './google-connections.ts'

export type ConnectPage = { status: number; title: string; text: string; notifyOpener?: boolean }

const CLOSE_AND_RETRY = 'Close this window and choose Connect Now under Integrations to try again.'

export const CONNECT_PAGES = {
  notConfigured: {
    status: 503,
    title: 'Google Drive is not configured on this server',
    text: 'The server operator has not set up a Google OAuth client (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).',
  },
  notSignedIn: {
    status: 401,
    title: 'Sign in to DocChat first',
    text: 'Your DocChat session has ended. Sign in to DocChat, then choose Connect Now under Integrations again.',
  },
} satisfies Record<string, ConnectPage>

export const OUTCOME_PAGES: Record<ConnectOutcome, ConnectPage> = {
  connected: {
    status: 200,
    title: 'Google Drive connected — you can close this window',
    text: 'DocChat can now list your Drive files and ingest your documents.',
    notifyOpener: true,
  },
  'missing-state': {
    status: 400,
    title: 'This connection request is incomplete',
    text: `The answer from Google carries no request state, so it cannot be trusted. Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  'unknown-state': {
    status: 400,
    title: 'This connection request is not valid',
    text: `It was already used, or it was started by another DocChat account. Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  'expired-state': {
    status: 400,
    title: 'This connection request has expired',
    text: `Connecting must be finished within 10 minutes. Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  denied: {
    status: 200,
    title: 'You cancelled connecting Google Drive',
    text: 'DocChat got no access to your Drive. You can connect it any time under Integrations.',
  },
  'google-error': {
    status: 400,
    title: 'Google did not grant access',
    text: `Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  'missing-code': {
    status: 400,
    title: 'Google sent no authorization code',
    text: `Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  'exchange-failed': {
    status: 502,
    title: 'Google Drive could not be connected',
    text: `Google did not accept the authorization code (it may have expired). Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
  'scope-missing': {
    status: 400,
    title: 'DocChat was not allowed to read your Drive files',
    text: `Ingesting needs read access to your files; leave that box ticked on Google's page. Nothing was stored. ${CLOSE_AND_RETRY}`,
  },
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/** JSON safe inside a <script>: no `</script>`, no HTML comment openers. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** The page and the Content-Security-Policy that lets exactly its own script and style run. */
export function renderConnectPage(page: ConnectPage, appOrigin: string): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64')
  const notify = page.notifyOpener
    ? `if (window.opener) window.opener.postMessage(${scriptJson(DRIVE_CONNECTED_MESSAGE)}, ${scriptJson(appOrigin)});\n`
    : ''
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · DocChat</title>
<style nonce="${nonce}">
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1.5rem; color: #1f2937; }
h1 { font-size: 1.35rem; }
p { line-height: 1.5; }
button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 0.5rem; border: 1px solid #2563eb; background: #2563eb; color: #fff; cursor: pointer; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.text)}</p>
<button type="button" id="close">Close window</button>
</main>
<script nonce="${nonce}">
${notify}document.getElementById('close').addEventListener('click', function () { window.close() });
</script>
</body>
</html>
`
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  return { html, csp }
}
