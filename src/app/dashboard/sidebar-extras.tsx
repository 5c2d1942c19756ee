import type { ReactNode } from 'react'
import { useId, useState } from 'react'
import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark, UploadIcon } from '#src/components/ui/icons.tsx'
import { css } from '../../../styled-system/css'
import { RecentConversations } from './recent-conversations.tsx'

// On phones the panel is behind a "More" toggle (the strip above the content stays one line);
// on wide screens it is always shown under the sections.
const panelStyle = css({
  display: 'none',
  flexDirection: 'column',
  gap: '3',
  mt: { base: '2', md: '6' },
  md: { display: 'flex' },
  '[data-expanded] > &': { display: 'flex' },
})
const toggleStyle = css({ mt: '1', md: { display: 'none' } })
const panelTitleStyle = css({
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: 'muted',
  px: '3',
})

type SidebarExtrasProps = { section: DashboardSection; onOpenIntegrations: () => void }

/** product §2 sidebar extras, shown for the section on screen; on phones one tap away. */
export function SidebarExtras({ section, onOpenIntegrations }: SidebarExtrasProps) {
  const [expanded, setExpanded] = useState(false)
  const panelId = useId()
  const panel = extrasPanel(section, onOpenIntegrations)
  if (!panel) return null
  return (
    <div id={panelId} data-expanded={expanded ? '' : undefined}>
      <Button
        variant="ghost"
        size="sm"
        className={toggleStyle}
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={() => setExpanded(!expanded)}
      >
        {expanded ? 'Less' : 'More'}
      </Button>
      {panel}
    </div>
  )
}

function extrasPanel(section: DashboardSection, onOpenIntegrations: () => void): ReactNode {
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
