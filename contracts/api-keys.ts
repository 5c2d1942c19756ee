/**
 * Personal API keys (issue 38, D124): what a person's own programs call DocChat with. A key is
 * shown in full once, when it is made (`key`), and then only by its prefix. These calls take the
 * browser session only: a key never lists, makes or revokes keys. Every id is checked against the
 * signed-in person: another person's key answers 404 like a missing one; an assistant that is not
 * theirs answers 400 naming it.
 */
import { z } from 'zod'
import { IdParamsSchema } from './chat.ts'
import { endpoint } from './endpoint.ts'
import { userText } from './user-text.ts'

/** What every key starts with, so a leaked one is recognised (by secret scanners too). */
export const API_KEY_PREFIX = 'dc_'
/** How many live keys one person may have; making one more is refused with 400. */
export const API_KEYS_PER_PERSON = 20
export const API_KEY_NAME_MAX_LENGTH = 80
export const API_KEY_EXPIRY_DAYS = [30, 90, 365] as const

/** `chat`: the OpenAI-compatible endpoint; `library`: list, upload and delete documents. */
export const API_KEY_SCOPES = ['chat', 'library'] as const
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: 'A scope must be "chat" or "library"' })
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>

const name = userText(
  z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_NAME_MAX_LENGTH, `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters`),
  'Name',
)

const positiveLimit = (field: string, unit: string) =>
  z
    .number({ error: `${field} must be a number of ${unit}` })
    .int(`${field} must be a whole number of ${unit}`)
    .min(1, `${field} must be at least 1`)

export const CreateApiKeyRequestSchema = z.strictObject({
  name,
  scopes: z
    .array(ApiKeyScopeSchema, { error: 'scopes must be a list of "chat" and "library"' })
    .min(1, 'Choose at least one thing the key may do: chat, library or both')
    .max(API_KEY_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Name each scope once'),
  expiresInDays: z.union([z.literal(30), z.literal(90), z.literal(365), z.null()], {
    error: 'expiresInDays must be 30, 90, 365 or null (never)',
  }),
  /** Only this assistant (with `chat`); absent or null: every assistant of the person. */
  assistantId: z.uuid({ error: 'assistantId must be an assistant id' }).nullable().optional(),
  /** Lower than the server's own limit (API_KEY_REQUESTS_PER_MINUTE); absent: the server's. */
  requestsPerMinute: positiveLimit('requestsPerMinute', 'requests').nullable().optional(),
  /** Lower than the server's own limit (API_KEY_TOKENS_PER_DAY); absent: the server's. */
  tokensPerDay: positiveLimit('tokensPerDay', 'tokens').nullable().optional(),
})
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>

/** A key as its list shows it: never the key itself, only its first characters. */
export const ApiKeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** `dc_` and the key's next 8 characters: enough to tell keys apart, far too few to guess one. */
  prefix: z.string(),
  scopes: z.array(ApiKeyScopeSchema),
  assistantId: z.string().nullable(),
  /** null: the server's limit. */
  requestsPerMinute: z.number().int().nullable(),
  tokensPerDay: z.number().int().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** null: never expires. */
  expiresAt: z.string().nullable(),
})
export type ApiKey = z.infer<typeof ApiKeySchema>

/** The answer to making a key: its fields and, this once, the key. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() })
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>

export const apiKeyEndpoints = {
  listApiKeys: endpoint({ method: 'GET', path: '/api-keys', data: z.array(ApiKeySchema) }),
  createApiKey: endpoint({
    method: 'POST',
    path: '/api-keys',
    request: CreateApiKeyRequestSchema,
    data: CreatedApiKeySchema,
    status: 201,
  }),
  deleteApiKey: endpoint({
    method: 'DELETE',
    path: '/api-keys/:id',
    params: IdParamsSchema,
    data: z.null(),
  }),
}
