/**
 * Accounts and sessions: product §5 validation rules and the five /auth calls of §7.
 * The same schemas validate the sign-in and sign-up forms and the server's request bodies.
 */
import { z } from 'zod'
import { endpoint, okEnvelope } from './endpoint.ts'

export const PASSWORD_MIN_LENGTH = 6
/** argon2 work is bounded: a longer password is refused before it is hashed. */
export const PASSWORD_MAX_LENGTH = 256
export const EMAIL_MAX_LENGTH = 254

const EmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, 'Email is too long')
  .pipe(z.email('Invalid email'))

export const LoginRequestSchema = z.strictObject({
  email: EmailSchema,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, 'Password is too long'),
})
export type LoginRequest = z.infer<typeof LoginRequestSchema>

export const RegisterRequestSchema = z
  .strictObject({
    email: EmailSchema,
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(PASSWORD_MAX_LENGTH, 'Password is too long'),
    confirmPassword: z
      .string({ error: 'Confirm Password is required' })
      .min(1, 'Confirm Password is required'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords must match',
    path: ['confirmPassword'],
  })
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>

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
} as const

/** A liveness probe: answered bare, outside the envelope. */
export const healthEndpoint = endpoint({
  method: 'GET',
  path: '/health',
  response: z.object({ status: z.literal('ok') }),
})
