/**
 * The open conversation's "Export" and "Share" (D73). Export is a menu of two downloads
 * (Markdown, PDF) with times in the person's own time zone. Share opens a dialog: create a
 * read-only link, copy it, update it to the conversation as it is now (the link stays), or stop
 * sharing (the link then shows "not found").
 */
import { Menu } from '@ark-ui/react/menu'
import { useState } from 'react'
import type { ExportFormat } from '#contracts/sharing.ts'
import { exportUrl } from '#src/api/sharing.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { useCopyText } from '#src/components/ui/use-copy-text.ts'
import { inlineInput } from '#src/theme/inline-input.ts'
import { menu } from '#src/theme/menu.ts'
import { css } from '../../../styled-system/css'
import { useShares } from './use-shares.ts'

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'md', label: 'Markdown (.md)' },
  { format: 'pdf', label: 'PDF (.pdf)' },
]

export function ConversationSharing({ conversationId }: { conversationId: string }) {
  const [sharing, setSharing] = useState(false)
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
      <ExportMenu conversationId={conversationId} />
      <Button variant="ghost" size="sm" onClick={() => setSharing(true)}>
        Share
      </Button>
      {sharing ? <ShareDialog conversationId={conversationId} onClose={() => setSharing(false)} /> : null}
    </div>
  )
}

/**
 * Export and Share as entries of the phone's conversation menu (issue 40, item 3): each export a
 * link (a download); Share asks the screen to open the dialog, which outlives the closed menu.
 */
export function ConversationSharingItems({
  conversationId,
  onShare,
}: {
  conversationId: string
  onShare: () => void
}) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return (
    <>
      {FORMATS.map(({ format, label }) => (
        <Menu.Item key={format} value={`export-${format}`} asChild className={menu.item}>
          <a href={exportUrl(conversationId, format, timeZone)} download>
            Export as {label}
          </a>
        </Menu.Item>
      ))}
      <Menu.Item value="share" className={menu.item} onSelect={onShare}>
        Share
      </Menu.Item>
    </>
  )
}

function ExportMenu({ conversationId }: { conversationId: string }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return (
    <Menu.Root
      aria-label="Export the conversation"
      loopFocus
      positioning={{ placement: 'bottom-end', gutter: 4 }}
      lazyMount
      unmountOnExit
    >
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm">
          Export
        </Button>
      </Menu.Trigger>
      <Menu.Positioner className={menu.positioner}>
        <Menu.Content className={menu.content}>
          {FORMATS.map(({ format, label }) => (
            // An item that is a link: Enter or a click follows it (a download), and the menu closes.
            <Menu.Item key={format} value={format} asChild className={menu.item}>
              <a href={exportUrl(conversationId, format, timeZone)} download>
                {label}
              </a>
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}

export function ShareDialog({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const { shares, loaded, pendingId, problem, share, revoke } = useShares()
  const current = shares.find((s) => s.conversationId === conversationId) ?? null
  const busy = pendingId === conversationId || !loaded
  const copy = useCopyText(current?.url ?? '')
  return (
    <Dialog title="Share this conversation" onClose={onClose}>
      <div className={css({ display: 'grid', gap: '3', fontSize: 'sm' })}>
        <p>
          Anyone with the link can read this conversation as it is when you share it, without signing in. Your
          documents are not shared, only the passages the answers quote.
        </p>
        {problem ? <Alert>{problem}</Alert> : null}
        {current ? (
          <>
            <label className={css({ display: 'grid', gap: '1' })}>
              <span className={css({ fontWeight: 'medium' })}>Read-only link</span>
              <input
                readOnly
                value={current.url}
                onFocus={(event) => event.currentTarget.select()}
                className={inlineInput}
              />
            </label>
            <p className={css({ color: 'muted' })}>
              Shared {new Date(current.sharedAt).toLocaleString()}. Later messages are not in it until you
              update the link.
            </p>
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
              <Button size="sm" onClick={copy.copy}>
                {copy.copied ? 'Copied' : 'Copy link'}
              </Button>
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => share(conversationId)}>
                Update link
              </Button>
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => revoke(conversationId)}>
                Stop sharing
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button size="sm" disabled={busy} onClick={() => share(conversationId)}>
              {pendingId === conversationId ? 'Creating link...' : 'Create link'}
            </Button>
          </div>
        )}
        <p role="status" className={css({ srOnly: true })}>
          {current ? 'This conversation is shared.' : loaded ? 'This conversation is not shared.' : ''}
        </p>
      </div>
    </Dialog>
  )
}
