import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark, UploadIcon } from '#src/components/ui/icons.tsx'
import { css } from '../../../styled-system/css'
import { RecentConversations } from './recent-conversations.tsx'

const panelStyle = css({ display: { base: 'none', md: 'flex' }, flexDirection: 'column', gap: '3', mt: '6' })
const panelTitleStyle = css({
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: 'muted',
  px: '3',
})

type SidebarExtrasProps = { section: DashboardSection; onOpenIntegrations: () => void }

/** SPEC §2 sidebar extras, shown for the section on screen (wide screens only). */
export function SidebarExtras({ section, onOpenIntegrations }: SidebarExtrasProps) {
  switch (section) {
    case 'history':
      return (
        <section aria-labelledby="recent-conversations" className={panelStyle}>
          <h2 id="recent-conversations" className={panelTitleStyle}>
            Recent Conversations
          </h2>
          <RecentConversations />
        </section>
      )
    case 'docs':
      return (
        <Card className={panelStyle}>
          <h2 className={css({ fontWeight: 'semibold' })}>Document Library</h2>
          <Button variant="secondary" size="sm">
            <UploadIcon size={16} />
            Upload Document
          </Button>
        </Card>
      )
    case 'settings':
      return (
        <Card className={panelStyle}>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
            <li>Account Settings</li>
            <li>Preferences</li>
            <li>Privacy</li>
          </ul>
        </Card>
      )
    case 'integrations':
      return (
        <div className={panelStyle}>
          <Button variant="secondary" size="sm" onClick={onOpenIntegrations}>
            <DriveMark size={16} />
            Google Drive
          </Button>
        </div>
      )
    case 'chat':
      return null
  }
}
