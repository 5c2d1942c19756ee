import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { RouteBoundary } from '../route-boundary.tsx'
import { SECTION_LABELS } from './dashboard-sidebar.tsx'
import { ChatSection } from './sections/chat-section.tsx'
import { DocsSection } from './sections/docs-section.tsx'
import { DocumentSection } from './sections/document-section.tsx'
import { HistorySection } from './sections/history-section.tsx'
import { IntegrationsSection } from './sections/integrations-section.tsx'
import { SettingsSection } from './sections/settings-section.tsx'
import { useDashboard } from './use-dashboard.ts'
import { useDashboardRoute } from './use-dashboard-route.ts'

/**
 * The main area: exactly the section the dashboard machine is in, behind its own error boundary
 * (a section that fails leaves the header and the sidebar working; another section starts afresh).
 */
export function SectionOutlet() {
  const { section } = useDashboard()
  // A document opened from the Documents or a citation: the viewer, which names the window itself.
  const route = useDashboardRoute()
  const documentId = section === 'docs' ? (route?.documentId ?? null) : null
  useDocumentTitle(documentId === null ? SECTION_LABELS[section] : null)
  return documentId === null ? (
    <RouteBoundary key={section} area={`The ${SECTION_LABELS[section]} section`}>
      <Section section={section} />
    </RouteBoundary>
  ) : (
    <RouteBoundary key={`document:${documentId}`} area="The document viewer">
      <DocumentSection documentId={documentId} />
    </RouteBoundary>
  )
}

function Section({ section }: { section: DashboardSection }) {
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
