/**
 * The calls behind the links DocChat mails (D76): ask for a password reset link, set a new
 * password with one, confirm an email with one. Apart from contracts/auth.ts so that /login,
 * which only links to these screens, does not carry them (they load on demand). zod/mini, as
 * auth.ts (D142): the screens that load this file need no other zod.
 */
import * as z from 'zod/mini'
import {
  ConfirmPasswordSchema,
  EmailSchema,
  NewPasswordSchema,
  PASSWORDS_MUST_MATCH,
  passwordsMatch,
} from './auth.ts'
import { endpoint } from './endpoint.ts'

export const ForgotPasswordRequestSchema = z.strictObject({ email: EmailSchema })
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>

/** A mailed link's token: 256 random bits, base64url (43 characters); anything far off is refused early. */
const LinkTokenSchema = z
  .string({ error: 'The link is incomplete. Open it again from the mail.' })
  .check(
    z.minLength(20, 'The link is incomplete. Open it again from the mail.'),
    z.maxLength(200, 'The link is not valid.'),
    z.regex(/^[A-Za-z0-9_-]+$/, 'The link is not valid.'),
  )

export const ResetPasswordRequestSchema = z
  .strictObject({
    token: LinkTokenSchema,
    password: NewPasswordSchema,
    confirmPassword: ConfirmPasswordSchema,
  })
  .check(z.refine(passwordsMatch, PASSWORDS_MUST_MATCH))
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>

export const ConfirmEmailRequestSchema = z.strictObject({ token: LinkTokenSchema })
export type ConfirmEmailRequest = z.infer<typeof ConfirmEmailRequestSchema>

export const accountLinkEndpoints = {
  /** Answers the same for any well-formed email, whether or not it has an account. */
  forgotPassword: endpoint({
    method: 'POST',
    path: '/auth/forgot-password',
    request: ForgotPasswordRequestSchema,
    data: z.null(),
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/auth/reset-password',
    request: ResetPasswordRequestSchema,
    data: z.null(),
  }),
  confirmEmail: endpoint({
    method: 'POST',
    path: '/auth/confirm-email',
    request: ConfirmEmailRequestSchema,
    data: z.null(),
  }),
} as const
