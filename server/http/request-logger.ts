/**
 * What the logs may hold (D35): the serializers of the request lines (no headers, so no
 * cookies; the OAuth callback's code and state redacted, emails masked) and of errors (no SQL
 * parameters, no row values). Fastify's own logger writes the request lines (D64).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { stdSerializers } from 'pino'
import { redactApiKeys } from './keys-in-urls.ts'

/** What Fastify's own serializers wrote for the request lines: no headers, so no cookies. */
export const LOG_SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
  res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
  err: (error: unknown) => stdSerializers.err(withoutUserData(error) as Error),
}

/** Query parameters that are credentials for a moment (the OAuth callback's) or tokens. */
const SECRET_PARAMS = new Set(['code', 'state', 'access_token', 'id_token', 'refresh_token', 'token'])
const EMAIL = /([^\s@/?&=]+)@([^\s@/?&=]+\.[^\s@/?&=]+)/g

/** `ada@example.com` → `a***@example.com`: enough to tell accounts apart in a log, no more. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, (_, local: string, domain: string) => `${local.slice(0, 1)}***@${domain}`)
}

/**
 * A request URL as it may be logged: the OAuth callback's `code` and `state` (and any token)
 * redacted, email addresses masked, personal API keys redacted (D124), in the path as in the query.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?')
  const path = at === -1 ? url : url.slice(0, at)
  if (at === -1) return redactApiKeys(maskEmails(safeDecode(path)))
  const query = [...new URLSearchParams(url.slice(at + 1))]
    .map(
      ([key, value]) => `${key}=${SECRET_PARAMS.has(key.toLowerCase()) ? '[redacted]' : maskEmails(value)}`,
    )
    .join('&')
  return redactApiKeys(`${maskEmails(safeDecode(path))}?${query}`)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Fields of database errors that carry user data: SQL parameters, PostgreSQL's row details. */
const USER_DATA_FIELDS = ['params', 'detail', 'where', 'internalQuery', 'parameters'] as const

/**
 * An error as it may be logged: a failed query keeps its SQL (ours) but not its parameters (the
 * user's text), and PostgreSQL's `detail` (which quotes row values) is dropped, down the `cause`
 * chain. The stack's first line repeats the message, so it is rebuilt from the safe one.
 */
export function withoutUserData(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error
  const message = safeMessage(error)
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & Record<string, unknown>
  for (const [key, value] of Object.entries(error)) {
    if (!(USER_DATA_FIELDS as readonly string[]).includes(key)) copy[key] = value
  }
  Object.defineProperty(copy, 'message', { value: message, enumerable: false })
  const frames = error.stack?.split('\n').filter((line) => line.startsWith('    at ')) ?? []
  copy.stack = [`${error.name}: ${message}`, ...frames].join('\n')
  if (error.cause !== undefined) copy.cause = withoutUserData(error.cause, depth + 1)
  return copy
}

function safeMessage(error: Error): string {
  const fields = error as Error & { query?: unknown; params?: unknown; code?: unknown; severity?: unknown }
  if (fields.params !== undefined && fields.query !== undefined)
    return `Failed query: ${String(fields.query)}`
  // PostgreSQL's own messages may quote the value they refused ('invalid input syntax … "…"').
  if (typeof fields.code === 'string' && fields.severity !== undefined)
    return `PostgreSQL error ${fields.code}`
  return error.message
}
