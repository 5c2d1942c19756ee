/**
 * Every route of product §2, and the dashboard addresses linked from outside its route table
 * (src/app/dashboard/dashboard-screens.tsx, D106), written once. The address is the dashboard's
 * truth: each section has one, and so does each conversation; /dashboard, where sign-in lands,
 * shows the chat as /dashboard/chat does.
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
  /** The person's assistants (issue 36); one assistant's page is assistantPath(id). */
  assistants: '/dashboard/assistants',
  settings: '/dashboard/settings',
  /** One conversation, open in the chat view: reload and back/forward keep it. */
  conversation: '/dashboard/c/:id',
  /** A conversation shared by a read-only link (D73): open to anyone, signed in or not. */
  shared: '/s/:token',
} as const

/** Why /login was opened, when a flow sends the person there with something to say. */
export const loginNotices = {
  passwordReset: '/login?notice=password-reset',
  emailConfirmed: '/login?notice=email-confirmed',
  accountDeleted: '/login?notice=account-deleted',
} as const

/** The address of one conversation. */
export const conversationPath = (id: string) => `/dashboard/c/${encodeURIComponent(id)}`

/** One assistant's page. */
export const assistantPath = (id: string) => `/dashboard/assistants/${encodeURIComponent(id)}`

/**
 * An address in wouter's absolute form, for links and navigation that may sit inside the
 * dashboard's nested routes (base /dashboard, D106), where a plain '/…' is read under the base.
 */
export const fromRoot = (path: string) => `~${path}`
