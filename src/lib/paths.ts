import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'

/**
 * Every route of product §2 and the dashboard's own addresses, written once. The address is the
 * dashboard's truth: each section has one (its key is the section's name), and so does each
 * conversation; /dashboard, where sign-in lands, shows the chat as /dashboard/chat does.
 */
export const paths = {
  login: '/login',
  register: '/register',
  /** Asks for a password reset link (D76). */
  forgotPassword: '/forgot-password',
  /** Where the reset mail's link lands: `?token=…`. */
  resetPassword: '/reset-password',
  /** Where the confirmation mail's link lands: `?token=…`. */
  confirmEmail: '/confirm-email',
  dashboard: '/dashboard',
  chat: '/dashboard/chat',
  docs: '/dashboard/docs',
  integrations: '/dashboard/integrations',
  history: '/dashboard/history',
  settings: '/dashboard/settings',
  /** One conversation, open in the chat view: reload and back/forward keep it. */
  conversation: '/dashboard/c/:id',
  /** A conversation shared by a read-only link (D73): open to anyone, signed in or not. */
  shared: '/s/:token',
} as const satisfies Record<DashboardSection, string> & Record<string, string>

/** Why /login was opened, when a flow sends the person there with something to say. */
export const loginNotices = {
  passwordReset: '/login?notice=password-reset',
  emailConfirmed: '/login?notice=email-confirmed',
  accountDeleted: '/login?notice=account-deleted',
} as const

/** The address of one conversation. */
export const conversationPath = (id: string) => `/dashboard/c/${encodeURIComponent(id)}`
