import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { SECTION_LABELS } from './dashboard-sidebar.tsx'
import { ChatSection } from './sections/chat-section.tsx'
import { DocsSection } from './sections/docs-section.tsx'
import { HistorySection } from './sections/history-section.tsx'
import { IntegrationsSection } from './sections/integrations-section.tsx'
import { SettingsSection } from './sections/settings-section.tsx'
import { useDashboard } from './use-dashboard.ts'

/** The main area: exactly the section the dashboard machine is in. */
export function SectionOutlet() {
  const { section } = useDashboard()
  useDocumentTitle(SECTION_LABELS[section])
  switch (section) {
    case 'chat':
      return <ChatSection />
    case 'docs':
      return <DocsSection />
    case 'integrations':
      return <IntegrationsSection />
    case 'history':
      return <HistorySection />
    case 'settings':
      return <SettingsSection />
  }
}
