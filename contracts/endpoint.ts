/**
 * The wire format shared by the browser client and the server: every /api/v1 call is one
 * endpoint object. A URL is written once, here (STYLE.md principle 5).
 */
import { z } from 'zod'

export const API_PREFIX = '/api/v1'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export type Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Req extends z.ZodType | undefined = z.ZodType | undefined,
  Res extends z.ZodType = z.ZodType,
> = {
  method: M
  /** Full path as the server routes it, Fastify style (`/api/v1/chat/sessions/:id/delete`). */
  path: P
  /** The JSON body (POST/PATCH), or undefined when the call sends none. */
  request: Req
  /** The whole success body, envelope included. */
  response: Res
  /** The query string, for the calls that take one. */
  query?: z.ZodType
}

export function endpoint<
  M extends HttpMethod,
  P extends string,
  Req extends z.ZodType | undefined,
  Res extends z.ZodType,
>(e: Endpoint<M, P, Req, Res>): Endpoint<M, P, Req, Res> {
  return { ...e, path: `${API_PREFIX}${e.path}` as P }
}

/** Fills `:name` segments; every value is URI-encoded so an id can never change the path. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`)
    return encodeURIComponent(value)
  })
}

/**
 * One envelope for the whole API: success is `{ success: true, data }`, failure is
 * `{ success: false, message }` with a sentence a person can read.
 */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data })
}

export const ErrorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
})
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>
