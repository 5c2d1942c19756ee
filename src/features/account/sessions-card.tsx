import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'
import { cardStyle, cardTitleStyle, hintStyle, rowStyle } from './settings-styles.ts'
import { useSessions } from './use-account-settings.ts'

// A long list (16 sessions) scrolls inside the card instead of pushing the rest of Settings away.
const listStyle = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  maxH: '28rem',
  overflowY: 'auto',
})
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

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * Where the account is signed in (D81): sign out one, or every other. This browser's session was
 * last used now (the server says so as it lists them).
 */
export function SessionsCard() {
  const { loading, busy, failed, sessions, error, revoke, revokeOthers, retry } = useSessions()
  const others = sessions.filter((s) => !s.current).length
  return (
    <Card className={cardStyle}>
      <h3 className={cardTitleStyle}>Where you're signed in</h3>
      {error ? <Alert>{error}</Alert> : null}
      {loading ? <p className={hintStyle}>Loading sessions...</p> : null}
      {failed ? (
        <div>
          <Button variant="secondary" size="sm" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}
      <ul className={listStyle} aria-label="Sessions" aria-busy={busy}>
        {sessions.map((s) => (
          <li key={s.id} className={itemStyle}>
            <div>
              <p className={css({ fontWeight: 'medium' })}>
                {s.device}
                {s.current ? <span className={hintStyle}> · this browser</span> : null}
              </p>
              <p className={hintStyle}>
                {s.address ?? 'Unknown address'} · last used {when(s.lastUsedAt)}
              </p>
            </div>
            {s.current ? null : (
              <Button
                variant="secondary"
                size="sm"
                disabled={busy}
                onClick={() => revoke(s.id)}
                aria-label={`Sign out ${s.device}, last used ${when(s.lastUsedAt)}`}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div className={rowStyle}>
          <Button variant="secondary" disabled={busy} onClick={revokeOthers}>
            Sign out every other session
          </Button>
        </div>
      ) : null}
    </Card>
  )
}
