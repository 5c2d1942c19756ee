/**
 * The one HTTP path from the browser to /api/v1: cookies included, JSON in and out, the response
 * checked against its contract. Every failure becomes an ApiError with the HTTP status (0 when
 * the server could not be reached) and the server's message.
 */
import { safeParse } from 'zod/mini'
import {
  type CallArgs,
  type Endpoint,
  ErrorEnvelopeSchema,
  fillPath,
  type ResponseOf,
} from '#contracts/endpoint.ts'

export class ApiError extends Error {
  readonly status: number
  /** Seconds to wait, from a 429's Retry-After header. */
  readonly retryAfter: number | undefined

  constructor(status: number, message: string, retryAfter?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.retryAfter = retryAfter
  }
}

/** A refused call as an ApiError: the envelope's sentence, and a 429's Retry-After. */
export function apiErrorOf(response: Response, json: unknown): ApiError {
  const parsed = ErrorEnvelopeSchema.safeParse(json)
  const retryAfter = Number(response.headers.get('retry-after')) || undefined
  return new ApiError(response.status, parsed.success ? parsed.data.message : response.statusText, retryAfter)
}

export type HttpOptions = {
  /** '' in the browser (same origin); the mock server's URL in Pact tests. */
  baseUrl?: string
  fetch?: typeof fetch
}

/** The calls that answer JSON (streams and uploads have their own clients). */
export type JsonEndpoint = Endpoint & { kind: 'json' }

/**
 * Calls one endpoint. Its path parameters, body and query are typed from the endpoint object: a
 * missing or unknown parameter, a wrong body or a missing query fails `tsc`.
 */
export type Http = <E extends JsonEndpoint>(endpoint: E, ...input: CallArgs<E>) => Promise<ResponseOf<E>>

type LooseInput = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }

export function createHttp({
  baseUrl = '',
  fetch: doFetch = globalThis.fetch.bind(globalThis),
}: HttpOptions = {}): Http {
  return async function call<E extends JsonEndpoint>(
    endpoint: E,
    ...args: CallArgs<E>
  ): Promise<ResponseOf<E>> {
    // The endpoint typed the input; from here it is only strings to put in a URL and a body.
    const input = (args[0] ?? {}) as LooseInput
    const search = input.query ? `?${new URLSearchParams(input.query)}` : ''
    const url = `${baseUrl}${fillPath(endpoint.path, input.params)}${search}`
    const hasBody = input.body !== undefined
    let response: Response
    try {
      response = await doFetch(url, {
        method: endpoint.method,
        credentials: 'include',
        headers: hasBody
          ? { 'content-type': 'application/json', accept: 'application/json' }
          : { accept: 'application/json' },
        body: hasBody ? JSON.stringify(input.body) : undefined,
      })
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error')
    }
    const json: unknown = await response.json().catch(() => undefined)
    if (!response.ok) throw apiErrorOf(response, json)
    const parsed = safeParse(endpoint.response, json)
    if (!parsed.success) throw new ApiError(response.status, `Unexpected response from ${endpoint.path}`)
    return parsed.data as ResponseOf<E>
  }
}
