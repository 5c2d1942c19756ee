/**
 * Accounts and sessions: product §5 validation rules and the five /auth calls of §7.
 * The same schemas validate the sign-in and sign-up forms and the server's request bodies.
 * Written with zod/mini (D142): /login loads this module, and zod's classic API, once imported,
 * brings every schema kind it has (~13 KB gz) into /login's file.
 */
import * as z from 'zod/mini'
import { API_PREFIX, endpoint, okEnvelope } from './endpoint.ts'

export const PASSWORD_MIN_LENGTH = 6
/** argon2 work is bounded: a longer password is refused before it is hashed. */
export const PASSWORD_MAX_LENGTH = 256
export const EMAIL_MAX_LENGTH = 254

export const EmailSchema = z.pipe(
  z
    .string({ error: 'Email is required' })
    .check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(EMAIL_MAX_LENGTH, 'Email is too long')),
  z.email('Invalid email'),
)

export const LoginRequestSchema = z.strictObject({
  email: EmailSchema,
  password: z
    .string({ error: 'Password is required' })
    .check(z.minLength(1, 'Password is required'), z.maxLength(PASSWORD_MAX_LENGTH, 'Password is too long')),
})
export type LoginRequest = z.infer<typeof LoginRequestSchema>

/** A new password, with product §5's rules and texts (sign-up, reset, change). */
export const NewPasswordSchema = z
  .string({ error: 'Password is required' })
  .check(
    z.minLength(1, 'Password is required'),
    z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(PASSWORD_MAX_LENGTH, 'Password is too long'),
  )
/** The check and the message every new-password form shares (product §5). */
export const passwordsMatch = (v: { password: string; confirmPassword: string }) =>
  v.password === v.confirmPassword
export const PASSWORDS_MUST_MATCH = { message: 'Passwords must match', path: ['confirmPassword'] }
export const ConfirmPasswordSchema = z
  .string({ error: 'Confirm Password is required' })
  .check(z.minLength(1, 'Confirm Password is required'))

export const RegisterRequestSchema = z
  .strictObject({ email: EmailSchema, password: NewPasswordSchema, confirmPassword: ConfirmPasswordSchema })
  .check(z.refine(passwordsMatch, PASSWORDS_MUST_MATCH))
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>

/** What the account screens offer on this server (D76, D77, D79). */
export const AuthOptionsSchema = z.object({
  /** Sign in with Google is configured. */
  google: z.boolean(),
  /** Mail can be sent, so 'Forgot password?' works. */
  passwordReset: z.boolean(),
  signup: z.enum(['open', 'domains', 'closed']),
  /** A new account confirms its email before it can sign in. */
  emailVerification: z.boolean(),
})
export type AuthOptions = z.infer<typeof AuthOptionsSchema>

/** The browser goes here (a page, not a fetch) to sign in with Google; Google sends it back to the callback. */
export const GOOGLE_SIGN_IN_PATH = `${API_PREFIX}/auth/google`
export const GOOGLE_SIGN_IN_CALLBACK_PATH = `${API_PREFIX}/auth/google/callback`

/** Why Sign in with Google came back to /login (`/login?google=<reason>`), and what the person reads. */
export const GOOGLE_SIGN_IN_MESSAGES = {
  'not-configured': 'Sign in with Google is not configured on this server.',
  cancelled: 'Sign in with Google was cancelled.',
  expired: 'Sign in with Google took too long or was opened twice. Try again.',
  failed: 'Google could not confirm who you are. Try again.',
  unverified: 'Google has not verified this email address, so it cannot be used to sign in here.',
  'signup-closed': 'Sign-up is closed on this server, and no account here uses this Google address.',
  'signup-domain': 'Sign-up is not open to this email address, and no account here uses it.',
  disabled: 'This account is disabled. Ask the operator of this server.',
  'too-many': 'Too many attempts. Try again in a few minutes.',
} as const
export type GoogleSignInOutcome = keyof typeof GOOGLE_SIGN_IN_MESSAGES

/**
 * What a Google sign-in that worked has to tell the person (`/dashboard/settings?google=<notice>`):
 * the account had an address never proven, so whoever set its password lost it and every
 * sign-in ended (D99).
 */
export const GOOGLE_SIGN_IN_NOTICES = {
  'account-claimed':
    'An account had been made with your address before you proved it was yours: its password is removed and every other sign-in has ended, so only you can use it now.',
} as const
export type GoogleSignInNotice = keyof typeof GOOGLE_SIGN_IN_NOTICES

/** What the API says about a person: never a hash, never a token. */
export const UserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  createdAt: z.string(),
})
export type User = z.infer<typeof UserSchema>

const UserPayloadDataSchema = z.object({ user: UserSchema })
export const UserPayloadSchema = okEnvelope(UserPayloadDataSchema)

export const authEndpoints = {
  register: endpoint({
    method: 'POST',
    path: '/auth/register',
    request: RegisterRequestSchema,
    data: UserPayloadDataSchema,
    status: 201,
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/login',
    request: LoginRequestSchema,
    data: UserPayloadDataSchema,
  }),
  logout: endpoint({ method: 'POST', path: '/auth/logout', data: z.null() }),
  /** product §7: "data.data is the current user". */
  me: endpoint({ method: 'GET', path: '/auth/me', data: UserSchema }),
  refreshToken: endpoint({ method: 'POST', path: '/auth/refresh-token', data: UserPayloadDataSchema }),
  options: endpoint({ method: 'GET', path: '/auth/options', data: AuthOptionsSchema }),
} as const

/** A liveness probe: answered bare, outside the envelope. */
export const healthEndpoint = endpoint({
  method: 'GET',
  path: '/health',
  response: z.object({ status: z.literal('ok') }),
})
