import { useLocation } from 'wouter'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark, UploadIcon } from '#src/components/ui/dashboard-icons.tsx'
import { useUpload } from '#src/features/chat/use-upload.ts'
import { css } from '../../../styled-system/css'
import { RecentConversations } from './recent-conversations.tsx'
import { SETTINGS_ANCHORS } from './sections/settings-section.tsx'

// On phones the panel is in the menu drawer with the sections (dashboard-sidebar.tsx).
const panelStyle = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '6' })
const settingsLinkStyle = css({
  color: 'text',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  _hover: { color: 'accent' },
})
const panelTitleStyle = css({
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: 'muted',
  px: '3',
})

/** How many conversations the chat section lists beside it; History has them all. */
const CHAT_RECENT_LIMIT = 20

// product §2 sidebar extras, one per section, shown with it (dashboard-screens.tsx: `Extras`).

export function HistoryExtras() {
  return (
    <section aria-labelledby="recent-conversations" className={panelStyle}>
      <h2 id="recent-conversations" className={panelTitleStyle}>
        Recent Conversations
      </h2>
      <RecentConversations />
    </section>
  )
}

export function DocumentsExtras() {
  return (
    <Card className={panelStyle}>
      <h2 className={css({ fontWeight: 'semibold' })}>Document Library</h2>
      <UploadDocumentButton />
    </Card>
  )
}

/** The spec's card; its items lead to their part of Settings (issue 26: no dead controls). */
export function SettingsExtras() {
  return (
    <Card className={panelStyle}>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
        <li>
          <a href={`#${SETTINGS_ANCHORS.account}`} className={settingsLinkStyle}>
            Account Settings
          </a>
        </li>
        <li>
          <a href={`#${SETTINGS_ANCHORS.preferences}`} className={settingsLinkStyle}>
            Preferences
          </a>
        </li>
        <li>
          <a href={`#${SETTINGS_ANCHORS.privacy}`} className={settingsLinkStyle}>
            Privacy
          </a>
        </li>
      </ul>
    </Card>
  )
}

/** Shown on Integrations only: it goes to the screen already shown (a replace, no new entry). */
export function IntegrationsExtras() {
  const [, navigate] = useLocation()
  return (
    <div className={panelStyle}>
      <Button variant="secondary" size="sm" onClick={() => navigate('/integrations', { replace: true })}>
        <DriveMark size={16} />
        Google Drive
      </Button>
    </div>
  )
}

export function ChatExtras() {
  return (
    <section aria-labelledby="chat-recent-conversations" className={panelStyle}>
      <h2 id="chat-recent-conversations" className={panelTitleStyle}>
        Recent Conversations
      </h2>
      <RecentConversations limit={CHAT_RECENT_LIMIT} />
    </section>
  )
}

/** The spec's 'Upload Document': the Upload dialog, for the library (issue 26: no dead controls). */
function UploadDocumentButton() {
  const upload = useUpload()
  return (
    <Button variant="secondary" size="sm" aria-haspopup="dialog" onClick={() => upload.open('library')}>
      <UploadIcon size={16} />
      Upload Document
    </Button>
  )
}
