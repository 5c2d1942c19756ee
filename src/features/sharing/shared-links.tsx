/**
 * Which of the person's conversations are shared by a link (D73), each with its link to copy and
 * "Stop sharing"; shown with the Conversation History. Nothing when none is shared.
 */
import type { Share } from '#contracts/sharing.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { useCopyText } from '#src/components/ui/use-copy-text.ts'
import { css } from '../../../styled-system/css'
import { useShares } from './use-shares.ts'

export function SharedLinks({ onOpen }: { onOpen: (conversationId: string) => void }) {
  const { shares, pendingId, problem, revoke } = useShares()
  if (shares.length === 0 && !problem) return null
  return (
    <section aria-labelledby="shared-links-heading" className={css({ display: 'grid', gap: '2', mt: '6' })}>
      <h2 id="shared-links-heading" className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
        Shared links
      </h2>
      {problem ? <Alert>{problem}</Alert> : null}
      <ul className={css({ display: 'grid', gap: '2' })}>
        {shares.map((share) => (
          <SharedLink
            key={share.conversationId}
            share={share}
            busy={pendingId === share.conversationId}
            onOpen={onOpen}
            onRevoke={revoke}
          />
        ))}
      </ul>
    </section>
  )
}

type SharedLinkProps = {
  share: Share
  busy: boolean
  onOpen: (conversationId: string) => void
  onRevoke: (conversationId: string) => void
}

function SharedLink({ share, busy, onOpen, onRevoke }: SharedLinkProps) {
  const copy = useCopyText(share.url)
  return (
    <li
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: '2',
        px: '3',
        py: '2',
        bg: 'surface',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'lg',
      })}
    >
      <button
        type="button"
        onClick={() => onOpen(share.conversationId)}
        className={css({
          flex: '1',
          minW: '10rem',
          textAlign: 'left',
          fontWeight: 'medium',
          overflowWrap: 'anywhere',
          cursor: 'pointer',
        })}
      >
        {share.title}
        <span className={css({ display: 'block', fontSize: 'xs', color: 'muted', fontWeight: 'normal' })}>
          Shared {new Date(share.sharedAt).toLocaleDateString()}
        </span>
      </button>
      <Button variant="ghost" size="sm" onClick={copy.copy} aria-label={`Copy link: ${share.title}`}>
        {copy.copied ? 'Copied' : 'Copy link'}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        onClick={() => onRevoke(share.conversationId)}
        aria-label={`Stop sharing: ${share.title}`}
      >
        Stop sharing
      </Button>
    </li>
  )
}
