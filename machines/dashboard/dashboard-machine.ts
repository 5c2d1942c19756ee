/**
 * Which dashboard section is on screen (product §2): one state per section, chosen with
 * 'dashboard.select'. The address is the truth: the app sends 'dashboard.select' only when the
 * route changes (src/app/dashboard/use-dashboard-route.ts) and starts the actor in the section
 * its address names. Each section is a state so features can invoke their own machines inside
 * it. Nothing is injected yet.
 */
import { setup } from 'xstate'

export const DASHBOARD_SECTIONS = ['chat', 'docs', 'integrations', 'history', 'settings'] as const
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number]

export type DashboardEvent = { type: 'dashboard.select'; section: DashboardSection }

export const dashboardMachine = setup({
  types: { events: {} as DashboardEvent },
  guards: {
    isSection: ({ event }, params: { section: DashboardSection }) => event.section === params.section,
  },
}).createMachine({
  id: 'dashboard',
  initial: 'chat',
  on: {
    'dashboard.select': DASHBOARD_SECTIONS.map((section) => ({
      guard: { type: 'isSection' as const, params: { section } },
      target: `.${section}`,
    })),
  },
  states: {
    chat: {
      description: 'Chat with Docs: a new chat, or the conversation the address names (chat feature).',
    },
    docs: { description: 'Documents from the connected drive.' },
    integrations: { description: 'Apps & Integrations: connect Google Drive.' },
    history: { description: 'Conversation History.' },
    settings: { description: 'Profile: read-only email and an unsaved display name.' },
  },
})
