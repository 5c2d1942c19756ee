/**
 * Refusals in OpenAI's own shape (`{"error": {"message", "type", "code", "param"}}`) with the
 * statuses its SDKs turn into their error classes (AuthenticationError 401,
 * PermissionDeniedError 403, NotFoundError 404, RateLimitError 429, BadRequestError 400), D130.
 * The endpoint's own error handler (openai-compat-plugin.ts) sends them; everything else thrown
 * under /openai/v1 is turned into one of them there, never the app's `{ success, message }`.
 */
import type { OpenAiErrorBody, OpenAiErrorCode } from '#contracts/openai.ts'

export class OpenAiError extends Error {
  readonly status: number
  readonly type: string
  /** OpenAI's code, or the keys domain's own for a refusal OpenAI has no word for. */
  readonly code: OpenAiErrorCode | string | null
  readonly param: string | null
  /** A 429's wait, sent as Retry-After. */
  readonly retryAfterSeconds: number | null

  constructor(
    status: number,
    message: string,
    details: {
      type: string
      code: OpenAiErrorCode | string | null
      param?: string | null
      retryAfterSeconds?: number
    },
  ) {
    super(message)
    this.name = 'OpenAiError'
    this.status = status
    this.type = details.type
    this.code = details.code
    this.param = details.param ?? null
    this.retryAfterSeconds = details.retryAfterSeconds ?? null
  }

  body(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param } }
  }
}

export const INVALID_KEY_MESSAGE =
  'The API key is missing, wrong, expired or revoked. Send a DocChat key (dc_…) as "Authorization: Bearer <key>".'
export const NO_CHAT_SCOPE_MESSAGE = 'This API key may not chat: create a key with the "chat" scope.'

/**
 * A key the keys domain refused, in OpenAI's words: 401 `invalid_api_key` (missing, wrong, expired,
 * revoked), 403 `insufficient_permissions` (no `chat` scope), 429 `rate_limit_exceeded` (the key's
 * requests this minute spent, D134), 400 with the keys domain's own code (a key beside a session
 * cookie).
 */
export function keyRefused(refusal: {
  status: number
  code: string
  message: string
  retryAfterSeconds?: number
}): OpenAiError {
  if (refusal.status === 429) return rateLimited(refusal.message, 'requests', refusal.retryAfterSeconds ?? 60)
  if (refusal.status === 401)
    return new OpenAiError(401, refusal.message, { type: 'invalid_request_error', code: 'invalid_api_key' })
  if (refusal.status === 403) return forbidden(refusal.message)
  return new OpenAiError(refusal.status, refusal.message, {
    type: 'invalid_request_error',
    code: refusal.code,
  })
}

export const invalidKey = () =>
  new OpenAiError(401, INVALID_KEY_MESSAGE, { type: 'invalid_request_error', code: 'invalid_api_key' })

export const forbidden = (message: string) =>
  new OpenAiError(403, message, { type: 'invalid_request_error', code: 'insufficient_permissions' })

export const modelNotFound = (model: string) =>
  new OpenAiError(
    404,
    `The model "${model}" does not exist or you do not have access to it. GET /openai/v1/models lists the ones you may use.`,
    { type: 'invalid_request_error', code: 'model_not_found', param: 'model' },
  )

export const invalidRequest = (message: string, param: string | null) =>
  new OpenAiError(400, message, { type: 'invalid_request_error', code: 'invalid_request_error', param })

export const rateLimited = (message: string, kind: 'requests' | 'tokens', retryAfterSeconds: number) =>
  new OpenAiError(429, message, { type: kind, code: 'rate_limit_exceeded', retryAfterSeconds })

export const serverError = (status: number, message: string) =>
  new OpenAiError(status, message, { type: 'server_error', code: 'server_error' })
