/**
 * The dashboard's route table (D106): each screen is one entry, and the sidebar, the section
 * outlet, the document titles and the wiring actor's routes all read it. Paths are under
 * /dashboard, on wouter's nested routes (`<Route path="/dashboard" nest>` in routes.tsx), so a
 * link inside the dashboard is written `/docs`; `:id` is read with wouter's `useParams`
 * (screen-match.ts). A new screen is one entry here plus its feature folder (architecture.md).
 */
import { useLocation, useRouter } from 'wouter'
import {
  AppsIcon,
  AssistantIcon,
  ChatIcon,
  DocumentIcon,
  HistoryIcon,
  SettingsIcon,
} from '#src/components/ui/dashboard-icons.tsx'
import { paths } from '#src/lib/paths.ts'
import { type DashboardScreen, type ScreenMatch, screenAt } from './screen-match.ts'
import { AssistantInboxSection, AssistantSection, AssistantsSection } from './sections/assistants-section.tsx'
import { ChatSection } from './sections/chat-section.tsx'
import { DocumentSection } from './sections/document-section.tsx'
import { DocumentsSection } from './sections/documents-section.tsx'
import { HistorySection } from './sections/history-section.tsx'
import { IntegrationsSection } from './sections/integrations-section.tsx'
import { SettingsSection } from './sections/settings-section.tsx'
import {
  ChatExtras,
  DocumentsExtras,
  HistoryExtras,
  IntegrationsExtras,
  SettingsExtras,
} from './sidebar-extras.tsx'

export const SCREENS: readonly DashboardScreen[] = [
  {
    id: 'chat',
    path: '/chat',
    index: true,
    section: 'chat',
    label: 'Chat with Docs',
    icon: <ChatIcon />,
    inSidebar: true,
    // The chat names the tab itself: the open conversation's title, or 'Chat with Docs'.
    title: null,
    Section: ChatSection,
    Extras: ChatExtras,
  },
  {
    id: 'conversation',
    path: '/c/:id',
    section: 'chat',
    label: 'Chat with Docs',
    inSidebar: false,
    title: null,
    Section: ChatSection,
  },
  {
    id: 'documents',
    path: '/docs',
    section: 'documents',
    label: 'Documents',
    icon: <DocumentIcon />,
    inSidebar: true,
    title: 'Documents',
    Section: DocumentsSection,
    Extras: DocumentsExtras,
  },
  {
    id: 'document',
    path: '/documents/:id',
    section: 'documents',
    label: 'Document',
    area: 'The document viewer',
    inSidebar: false,
    title: null,
    Section: DocumentSection,
    key: ({ id }) => `document:${id}`,
  },
  {
    id: 'assistants',
    path: '/assistants',
    section: 'assistants',
    label: 'Assistants',
    icon: <AssistantIcon />,
    inSidebar: true,
    title: 'Assistants',
    Section: AssistantsSection,
  },
  {
    id: 'assistant',
    path: '/assistants/:id',
    section: 'assistants',
    label: 'Assistant',
    inSidebar: false,
    title: 'Assistant',
    Section: AssistantSection,
    key: ({ id }) => `assistant:${id}`,
  },
  {
    id: 'assistant-inbox',
    path: '/assistants/:id/conversations',
    section: 'assistants',
    label: 'Visitor conversations',
    inSidebar: false,
    title: 'Visitor conversations',
    Section: AssistantInboxSection,
    key: ({ id }) => `assistant-inbox:${id}`,
  },
  {
    id: 'integrations',
    path: '/integrations',
    section: 'integrations',
    label: 'Integrations',
    icon: <AppsIcon />,
    inSidebar: true,
    title: 'Integrations',
    Section: IntegrationsSection,
    Extras: IntegrationsExtras,
  },
  {
    id: 'history',
    path: '/history',
    section: 'history',
    label: 'Conversation History',
    icon: <HistoryIcon />,
    inSidebar: true,
    title: 'Conversation History',
    Section: HistorySection,
    Extras: HistoryExtras,
  },
  {
    id: 'settings',
    path: '/settings',
    section: 'settings',
    label: 'Settings',
    icon: <SettingsIcon />,
    inSidebar: true,
    title: 'Settings',
    Section: SettingsSection,
    Extras: SettingsExtras,
  },
]

/** The sidebar's entries, in its order. */
export const SIDEBAR = SCREENS.filter((screen) => screen.inSidebar)

/** The sidebar entry a screen belongs to. */
export const sectionOf = (screen: DashboardScreen): DashboardScreen =>
  SIDEBAR.find((entry) => entry.id === screen.section) ?? screen

/** The screen on show, from the nested router's address; null for an address that names none. */
export function useDashboardScreen(): ScreenMatch | null {
  const router = useRouter()
  const [path] = useLocation()
  // wouter's nest matches /Dashboard too; the dashboard's own addresses are lower-case.
  if (router.base !== paths.dashboard) return null
  return screenAt(SCREENS, path, router.parser)
}
