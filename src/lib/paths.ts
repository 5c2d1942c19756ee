/** Every route of SPEC §2, written once. */
export const paths = {
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
  /** One conversation, open in the chat view: reload and back/forward keep it. */
  conversation: '/dashboard/c/:id',
} as const

/** The address of one conversation. */
export const conversationPath = (id: string) => `/dashboard/c/${encodeURIComponent(id)}`
