/** Every route of SPEC §2, written once. */
export const paths = {
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
} as const
