/**
 * The one error handler: every failure leaves as `{ success: false, message }`. What a service
 * refuses arrives as a domain error (domain-errors.ts) and is mapped here, and only here, to its
 * status and headers (D108). A 4xx message is written for the person who sent the request; a 5xx
 * says only that it is our fault, and the details go to the log, unless it was thrown on purpose
 * with a sentence (`Unavailable`, `UpstreamFailed`, errors.ts `serverError`: Drive busy, shutting
 * down). Bad input never becomes a 500.
 */
import type { Socket } from 'node:net'
import { HttpError } from '@fastify/sensible'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { DomainError, type DomainErrorKind, TooMany } from './domain-errors.ts'

export const SERVER_FAULT_MESSAGE = 'Something went wrong on our side.'
const MIB = 1024 * 1024
export const BODY_LIMIT_BYTES = 1 * MIB

type ClientError = { statusCode: number; message: string }

/** The HTTP status of each kind of domain error: the one place a refusal becomes HTTP. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'too-many': 429,
  'upstream-failed': 502,
  unavailable: 503,
}

export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { statusCode, message } = toClientError(error)
      if (statusCode >= 500) request.log.error({ err: error }, 'request failed')
      // Headers an error was thrown with on purpose (a 429's Retry-After).
      if (error instanceof TooMany) reply.header('retry-after', String(error.retryAfterSeconds))
      if (error instanceof HttpError && error.headers) reply.headers(error.headers)
      return reply.code(statusCode).send({ success: false, message })
    })
  },
  { name: 'error-handler' },
)

/**
 * Fastify's `frameworkErrors`: errors found before routing (a malformed URL such as `/api/v1/%`,
 * an over-long path parameter), where no hook runs. They get the envelope and our security
 * headers like any other answer, and never echo the path back.
 */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const headers = request.server.hasDecorator('securityHeadersFor')
    ? request.server.securityHeadersFor(request.url)
    : {}
  const { statusCode, message } = frameworkClientError(error)
  if (statusCode >= 500) request.log.error({ err: error }, 'request failed')
  return reply.headers(headers).code(statusCode).send({ success: false, message })
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (not HTTP, headers too large,
 * a request too slow to arrive, D32) is answered on the socket itself, in the envelope and
 * with the API's security headers, then the connection is closed.
 */
export function clientErrorReply(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, reason, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
        : [400, 'Bad Request', 'The request is not valid HTTP']
  const body = JSON.stringify({ success: false, message })
  const headers = this.hasDecorator('securityHeadersFor') ? this.securityHeadersFor('/api/v1/') : {}
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  if (socket.writable) socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`)
  socket.destroy(error)
}

function frameworkClientError(error: FastifyError): ClientError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return { statusCode: 400, message: 'The address is not a valid URL' }
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { statusCode: 414, message: 'The address is too long' }
  }
  return { statusCode: 500, message: SERVER_FAULT_MESSAGE }
}

function toClientError(error: FastifyError | DomainError): ClientError {
  if (error instanceof DomainError) return { statusCode: DOMAIN_STATUS[error.kind], message: error.message }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0]
    if (first?.instancePath === '/' && first.keyword === 'invalid_type') {
      return { statusCode: 400, message: 'The request body must be a JSON object' }
    }
    if (first?.keyword === 'unrecognized_keys') {
      const keys = (first.params as { keys?: string[] }).keys ?? []
      return { statusCode: 400, message: `Unknown field${keys.length === 1 ? '' : 's'}: ${keys.join(', ')}` }
    }
    return { statusCode: 400, message: first?.message ?? 'Invalid request' }
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { statusCode: 400, message: 'Malformed JSON body' }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, message: 'The JSON body is empty: send a JSON object, or no Content-Type' }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        statusCode: 413,
        message: `The request body is too large (at most ${BODY_LIMIT_BYTES / MIB} MiB)`,
      }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { statusCode: 415, message: 'Unsupported content type: send the body as application/json' }
  }
  // Thrown on purpose (server/http/errors.ts): a 4xx, or a 5xx made to be read (`expose`).
  if (error instanceof HttpError && error.expose)
    return { statusCode: error.statusCode, message: error.message }
  const statusCode = error.statusCode ?? 500
  if (statusCode >= 400 && statusCode < 500) return { statusCode, message: error.message }
  return { statusCode: 500, message: SERVER_FAULT_MESSAGE }
}
