/**
 * Settings → API keys (issue 38): the person's keys by name, prefix, what they may do, created,
 * last used and expiry; a new key (shown once); revoking one (asked first).
 */
import type { ApiKey } from '#contracts/api-keys.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'
import { NewApiKeyDialog, RevokeKeyDialog, ShownKeyDialog } from './api-key-dialogs.tsx'
import { cardStyle, cardTitleStyle, hintStyle, rowStyle } from './settings-styles.ts'
import { useApiKeys } from './use-api-keys.ts'

const listStyle = css({ display: 'flex', flexDirection: 'column', gap: '2' })
const itemStyle = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '3',
  alignItems: 'center',
  justifyContent: 'space-between',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  px: '4',
  py: '3',
})

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' })
const SCOPE_NAMES = { chat: 'chat', library: 'library' } as const

function describe(key: ApiKey): string {
  const scopes = key.scopes.map((s) => SCOPE_NAMES[s]).join(' and ')
  const used = key.lastUsedAt ? `last used ${day(key.lastUsedAt)}` : 'never used'
  const expiry = key.expiresAt ? `expires ${day(key.expiresAt)}` : 'never expires'
  return `${scopes} · created ${day(key.createdAt)} · ${used} · ${expiry}`
}

export function ApiKeysCard() {
  const keys = useApiKeys()
  const revoking = keys.keys.find((k) => k._id === keys.confirming)
  return (
    <Card className={cardStyle}>
      <h3 className={cardTitleStyle}>API keys</h3>
      <p className={hintStyle}>
        Your own programs can use your assistants and library with a key. It is shown once, when you make it.
      </p>
      {keys.error && !keys.composing ? <Alert>{keys.error}</Alert> : null}
      {keys.loading ? <p className={hintStyle}>Loading keys...</p> : null}
      {keys.failed ? (
        <div>
          <Button variant="secondary" size="sm" onClick={keys.retry}>
            Try again
          </Button>
        </div>
      ) : null}
      <ul className={listStyle} aria-label="API keys">
        {keys.keys.map((key) => (
          <li key={key._id} className={itemStyle}>
            <div>
              <p className={css({ fontWeight: 'medium' })}>
                {key.name} <code className={hintStyle}>{key.prefix}…</code>
              </p>
              <p className={hintStyle}>{describe(key)}</p>
            </div>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => keys.revoke(key._id)}
              aria-label={`Revoke ${key.name}`}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      {!keys.loading && !keys.failed && keys.keys.length === 0 ? (
        <p className={hintStyle}>No keys yet.</p>
      ) : null}
      <div className={rowStyle}>
        <Button onClick={keys.compose} disabled={keys.loading || keys.failed}>
          New API key
        </Button>
      </div>
      {keys.composing ? <NewApiKeyDialog keys={keys} /> : null}
      {keys.created ? <ShownKeyDialog created={keys.created} onClose={keys.closeKey} /> : null}
      {revoking ? <RevokeKeyDialog name={revoking.name} keys={keys} /> : null}
    </Card>
  )
}
