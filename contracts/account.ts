/**
 * The signed-in person's own account, beside product §7's calls: what Settings shows and does
 * (change the password, the sessions, export, delete). Every call acts on the signed-in person
 * only; nothing a browser sends names another account.
 */
import { z } from 'zod'
import {
  ConfirmPasswordSchema,
  NewPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORDS_MUST_MATCH,
  passwordsMatch,
} from './auth.ts'
import { CitationCheckSchema } from './citation-checks.ts'
import { endpoint } from './endpoint.ts'

export const AccountSchema = z.object({
  email: z.string(),
  createdAt: z.string(),
  /** False for an account made by Sign in with Google that never set a password. */
  hasPassword: z.boolean(),
  /** Sign in with Google is linked to this account. */
  googleLinked: z.boolean(),
})
export type Account = z.infer<typeof AccountSchema>

export const ChangePasswordRequestSchema = z
  .strictObject({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(PASSWORD_MAX_LENGTH, 'Password is too long'),
    password: NewPasswordSchema,
    confirmPassword: ConfirmPasswordSchema,
  })
  .refine(passwordsMatch, PASSWORDS_MUST_MATCH)
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>

/** A sign-in of the account, as the sessions list shows it. */
export const SessionSchema = z.object({
  id: z.string(),
  /** "Chrome on Linux", from the browser's user agent; "Unknown device" without one. */
  device: z.string(),
  /** The address it signed in from, when known. */
  address: z.string().nullable(),
  createdAt: z.string(),
  /** Its last sign-in or refresh (the access token in between is checked without a write). */
  lastUsedAt: z.string(),
  /** The sign-in this request came with. */
  current: z.boolean(),
})
export type Session = z.infer<typeof SessionSchema>

/**
 * Deleting the account: its password, or, for an account that has none (made by Sign in with
 * Google), its email typed again.
 */
export const DeleteAccountRequestSchema = z.strictObject({
  password: z.string().max(PASSWORD_MAX_LENGTH, 'Password is too long').optional(),
  email: z.string().max(254, 'Email is too long').optional(),
})
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>

const ExportSourceSchema = z.object({
  documentName: z.string(),
  page: z.number().nullable(),
  citation: z.number().nullable(),
  quote: z.string().nullable(),
})

const ExportVersionSchema = z.object({
  version: z.number(),
  content: z.string(),
  createdAt: z.string(),
  feedback: z.enum(['like', 'dislike']).nullable(),
  feedbackReason: z.string().nullable(),
  feedbackNote: z.string().nullable(),
  stopped: z.boolean(),
  sources: z.array(ExportSourceSchema),
  /** Its citations checked (D129); null: not checked. */
  checks: z.array(CitationCheckSchema).nullable().optional(),
})

/** Everything the account holds that a person wrote or chose, in one JSON file. */
export const AccountExportSchema = z.object({
  format: z.literal('docchat-account-export/1'),
  exportedAt: z.string(),
  account: z.object({ email: z.string(), createdAt: z.string(), googleLinked: z.boolean() }),
  conversations: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      createdAt: z.string(),
      updatedAt: z.string(),
      /** The names of the documents it is limited to (D70), or null: the whole library. */
      documents: z.array(z.string()).nullable(),
      messages: z.array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.string(),
          createdAt: z.string(),
          feedback: z.enum(['like', 'dislike']).nullable(),
          /** Why the answer was disliked, when the person said (D93). */
          feedbackReason: z.string().nullable().optional(),
          feedbackNote: z.string().nullable().optional(),
          stopped: z.boolean(),
          sources: z.array(ExportSourceSchema),
          /** An answer's citations checked (D129); null: not checked; absent on questions. */
          checks: z.array(CitationCheckSchema).nullable().optional(),
          /** An answer written more than once: which version is shown, and every version (D93). */
          version: z.number().optional(),
          versions: z.array(ExportVersionSchema).optional(),
        }),
      ),
    }),
  ),
  library: z.array(
    z.object({
      name: z.string(),
      source: z.string(),
      mimeType: z.string(),
      status: z.string(),
      reason: z.string().nullable(),
      pages: z.number().nullable(),
      link: z.string().nullable(),
      addedAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  googleDrive: z.object({ connected: z.boolean(), email: z.string().nullable() }),
})
export type AccountExport = z.infer<typeof AccountExportSchema>

export const accountEndpoints = {
  account: endpoint({ method: 'GET', path: '/auth/account', data: AccountSchema }),
  /** Other sessions are signed out; this one stays. */
  changePassword: endpoint({
    method: 'POST',
    path: '/auth/account/password',
    request: ChangePasswordRequestSchema,
    data: z.object({ signedOut: z.number() }),
  }),
  /** A file download (Content-Disposition: attachment), answered bare. */
  exportAccount: endpoint({ method: 'GET', path: '/auth/account/export', response: AccountExportSchema }),
  deleteAccount: endpoint({
    method: 'POST',
    path: '/auth/account/delete',
    request: DeleteAccountRequestSchema,
    data: z.null(),
  }),
  listSessions: endpoint({
    method: 'GET',
    path: '/auth/sessions',
    data: z.object({ sessions: z.array(SessionSchema) }),
  }),
  revokeSession: endpoint({
    method: 'DELETE',
    path: '/auth/sessions/:id',
    params: z.object({ id: z.string() }),
    data: z.null(),
  }),
  revokeOtherSessions: endpoint({
    method: 'POST',
    path: '/auth/sessions/sign-out-others',
    data: z.object({ signedOut: z.number() }),
  }),
} as const
