/**
 * The wire format shared by the browser client and the server: every /api/v1 call is one
 * endpoint object. A URL is written once, here (docs/architecture.md, conventions 5), and so is everything a
 * call carries: its path parameters, body, query and answer. The client infers its arguments from
 * the object (src/api/client.ts) and the server declares its route from it (server/http/define-route.ts),
 * so a wrong body or a missing path parameter fails `tsc` on either side.
 * Written with zod/mini, as contracts/auth.ts (D142); an endpoint takes schemas of either API.
 */
import * as z from 'zod/mini'

export const API_PREFIX = '/api/v1'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/**
 * How a call travels: `json` (JSON in, JSON out), `stream` (JSON in, `text/event-stream` out;
 * `response` describes one event), `upload` (a multipart body in, JSON out) or `file` (a file
 * out, its bytes as they are: the browser opens or downloads it by its URL, src/api/file-url.ts).
 */
export type EndpointKind = 'json' | 'stream' | 'upload' | 'file'

/** The `:name` segments of a Fastify-style path, as a union of names (never when there are none). */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** Any zod schema, classic (most contracts) or mini (what /login loads, D142). */
type Schema = z.core.$ZodType
type Maybe<S> = S | undefined

export type Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends Maybe<Schema> = Maybe<Schema>,
  Req extends Maybe<Schema> = Maybe<Schema>,
  Query extends Maybe<Schema> = Maybe<Schema>,
  Data extends Maybe<Schema> = Maybe<Schema>,
  Res extends Schema = Schema,
  K extends EndpointKind = EndpointKind,
> = {
  method: M
  /** Full path as the server routes it, Fastify style (`/api/v1/chat/sessions/:id/delete`). */
  path: P
  /** The path parameters' schema; undefined when the path has none. */
  params: Params
  /** The JSON body (POST/PATCH), or undefined when the call sends none (or sends multipart). */
  request: Req
  /** The query string, for the calls that take one. */
  query: Query
  /** What `data` holds in the success envelope; undefined for the few calls answered bare. */
  data: Data
  /** The whole success body, envelope included (for `stream`: one event). */
  response: Res
  /** The success status (201 for the calls that create something). */
  status: 200 | 201
  kind: K
}

type ParamsFor<P extends string> = [PathParamNames<P>] extends [never]
  ? { params?: undefined }
  : { params: z.core.$ZodType<{ [K in PathParamNames<P>]: string }> }

type Definition<
  M extends HttpMethod,
  P extends string,
  Params extends Maybe<Schema>,
  Req extends Maybe<Schema>,
  Query extends Maybe<Schema>,
  Data extends Maybe<Schema>,
  Res extends Maybe<Schema>,
  K extends EndpointKind,
> = {
  method: M
  /** The path below API_PREFIX (`/chat/sessions/:id/delete`); API_PREFIX is added here. */
  path: P
  params?: Params
  request?: Req
  query?: Query
  status?: 200 | 201
  kind?: K
} & (
  | { /** Answered as `{ success: true, data }`. */ data: Data; response?: undefined }
  | { /** Answered bare (probes, streams). */ response: Res; data?: undefined }
) &
  ParamsFor<P>

type Defined<S> = S extends Schema ? S : undefined

/**
 * Declares one call. Pass `data` for a call answered in the success envelope (the whole API but
 * the probes) or `response` for one answered bare; `params` is required exactly when the path has
 * `:name` segments, with one string per name.
 */
export function endpoint<
  const M extends HttpMethod,
  const P extends string,
  Params extends Maybe<Schema> = undefined,
  Req extends Maybe<Schema> = undefined,
  Query extends Maybe<Schema> = undefined,
  Data extends Maybe<Schema> = undefined,
  Res extends Maybe<Schema> = undefined,
  K extends EndpointKind = 'json',
>(
  definition: Definition<M, P, Params, Req, Query, Data, Res, K>,
): Endpoint<
  M,
  `${typeof API_PREFIX}${P}`,
  Defined<Params>,
  Defined<Req>,
  Defined<Query>,
  Defined<Data>,
  Data extends Schema ? ReturnType<typeof okEnvelope<Data>> : Res extends Schema ? Res : never,
  K
> {
  const { data, response } = definition
  const body = data === undefined ? response : okEnvelope(data)
  if (body === undefined) throw new Error(`endpoint ${definition.path}: give data or response`)
  return {
    method: definition.method,
    path: `${API_PREFIX}${definition.path}`,
    params: definition.params,
    request: definition.request,
    query: definition.query,
    data,
    response: body,
    status: definition.status ?? 200,
    kind: definition.kind ?? 'json',
  } as never
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
export function okEnvelope<T extends Schema>(data: T) {
  return z.object({ success: z.literal(true), data })
}

export const ErrorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
})
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>

/** What a call sends, inferred from its endpoint: path parameters, body and query, each exactly when it has them. */
export type CallInput<E extends Endpoint> = ([PathParamNames<E['path']>] extends [never]
  ? { params?: undefined }
  : { params: { [K in PathParamNames<E['path']>]: string } }) &
  (E['request'] extends Schema ? { body: z.input<E['request']> } : { body?: undefined }) &
  (E['query'] extends Schema ? { query: z.input<E['query']> } : { query?: undefined })

/** The input argument, optional when the call takes nothing. */
export type CallArgs<E extends Endpoint> =
  object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]

/** The success body a call answers (the envelope, for enveloped calls). */
export type ResponseOf<E extends Endpoint> = z.output<E['response']>
