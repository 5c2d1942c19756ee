/**
 * The OpenAI-compatible calls' own error handler (D130): whatever is thrown under /openai/v1
 * leaves in OpenAI's error shape with the status its SDKs expect. A body the schema refuses is a
 * 400 naming the field as `param` (`messages[0].role`); the app's domain errors keep their
 * statuses; anything unforeseen is a 500 that says only that it is our fault (details logged).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { DomainError, TooMany } from '../http/domain-errors.ts'
import { BODY_LIMIT_BYTES, SERVER_FAULT_MESSAGE } from '../http/error-handler.ts'
import { invalidRequest, OpenAiError, rateLimited, serverError } from './openai-errors.ts'

const DOMAIN_STATUS = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
} as const

/** `/messages/0/role` → `messages[0].role`, as OpenAI names a parameter. */
export function paramName(instancePath: string): string | null {
  const parts = instancePath.split('/').filter(Boolean)
  if (parts.length === 0) return null
  return parts.reduce(
    (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
    '',
  )
}

function toOpenAiError(error: FastifyError | Error): OpenAiError {
  if (error instanceof OpenAiError) return error
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0]
    const param = first ? paramName(first.instancePath) : null
    if (param === null) return invalidRequest('The request body must be a JSON object.', null)
    return invalidRequest(`${param}: ${first?.message ?? 'invalid'}`, param)
  }
  if (error instanceof TooMany) return rateLimited(error.message, 'requests', error.retryAfterSeconds)
  if (error instanceof DomainError) {
    const status = (DOMAIN_STATUS as Record<string, number>)[error.kind]
    if (status !== undefined)
      return new OpenAiError(status, error.message, { type: 'invalid_request_error', code: null })
    return serverError(error.kind === 'upstream-failed' ? 502 : 503, error.message)
  }
  const code = (error as FastifyError).code
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY') return invalidRequest('The body is not valid JSON.', null)
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return invalidRequest('The body is empty: send a JSON object.', null)
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new OpenAiError(415, 'Send the body as application/json.', {
      type: 'invalid_request_error',
      code: null,
    })
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new OpenAiError(413, `The body is too large (at most ${BODY_LIMIT_BYTES} bytes).`, {
      type: 'invalid_request_error',
      code: null,
    })
  const status = (error as FastifyError).statusCode
  if (status !== undefined && status >= 400 && status < 500)
    return new OpenAiError(status, error.message, { type: 'invalid_request_error', code: null })
  return serverError(500, SERVER_FAULT_MESSAGE)
}

export function openAiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const failure = toOpenAiError(error)
  if (failure.status >= 500) request.log.error({ err: error }, 'API request failed')
  if (failure.retryAfterSeconds !== null) reply.header('retry-after', String(failure.retryAfterSeconds))
  return reply.code(failure.status).send(failure.body())
}

export function openAiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?', 1)[0] ?? ''
  return reply.code(404).send(
    new OpenAiError(404, `No such endpoint: ${request.method} ${path}`, {
      type: 'invalid_request_error',
      code: 'not_found',
    }).body(),
  )
}
