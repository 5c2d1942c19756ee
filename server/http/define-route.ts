/**
 * The one way a route is declared: from its endpoint object in contracts/, so the path, the
 * schemas that validate params, body and query, and the answer's schema are the contract's.
 * What every route needs is applied here, by construction, rather than remembered per route:
 * - the cross-site guard first on every state-changing call (request-guards.ts refuses to start
 *   an app with a POST/PATCH/DELETE route declared any other way);
 * - `auth: 'user'` puts `app.authenticate` in front and hands the handler the signed-in user;
 *   with `apiKey: scope` a personal API key with that scope is taken instead of the session
 *   (`app.sessionOrApiKey`, D124), and the handler is handed the key's owner;
 * - the handler returns the data and the helper answers `{ success: true, data }` with the
 *   endpoint's status (or the bare body for the probes; the event stream for `stream` calls; the
 *   file with its protective headers for `file` calls, file-reply.ts).
 */
import type { Readable } from 'node:stream'
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { ApiKeyScope } from '#contracts/api-keys.ts'
import type { Endpoint } from '#contracts/endpoint.ts'
import { type FileReply, sendFile } from './file-reply.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the routes declared here (read by the request guards' start-up check). */
    declaredByDefineRoute?: boolean
  }
}

export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>

type Auth = 'user' | 'public'
type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined

/** What a handler is given: the validated input, typed from the endpoint, and the user when signed in. */
export type RouteInput<E extends Endpoint, A extends Auth> = {
  params: Parsed<E['params']>
  body: Parsed<E['request']>
  query: Parsed<E['query']>
  /** The signed-in person, as the authentication plugin sets `request.user`. */
  user: A extends 'user' ? NonNullable<FastifyRequest['user']> : null
  request: FastifyRequest
  reply: FastifyReply
}

/**
 * What a handler returns: the envelope's data, the bare body, or the event stream to send; or the
 * reply itself once the handler has answered (a JSON call that answers a file when asked, the inbox's CSV).
 */
export type RouteResult<E extends Endpoint> =
  | FastifyReply
  | (E['kind'] extends 'stream'
      ? Readable
      : E['kind'] extends 'file'
        ? FileReply
        : E['data'] extends z.core.$ZodType
          ? z.input<E['data']>
          : z.input<E['response']>)

export type RouteOptions<E extends Endpoint, A extends Auth> = {
  auth: A
  /** Also take a personal API key with this scope instead of the session (only with `auth: 'user'`). */
  apiKey?: A extends 'user' ? ApiKeyScope : never
  /** Hooks after the guard and the sign-in check (rate limits). */
  onRequest?: onRequestHookHandler[]
  preHandler?: preHandlerHookHandler[]
  bodyLimit?: number
  handler: (input: RouteInput<E, A>) => Promise<RouteResult<E>> | RouteResult<E>
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-store as on every /api answer (they carry personal data, D7); no-transform keeps proxies
  // from compressing or rewriting the stream.
  'cache-control': 'no-store, no-transform',
  // nginx would otherwise hold the tokens back until its buffer fills.
  'x-accel-buffering': 'no',
} as const

export function defineRoute<E extends Endpoint, A extends Auth>(
  app: AppInstance,
  endpoint: E,
  options: RouteOptions<E, A>,
): void {
  const onRequest: onRequestHookHandler[] = [
    ...(STATE_CHANGING_METHODS.has(endpoint.method) ? [app.refuseCrossSite] : []),
    ...(options.auth === 'user'
      ? [options.apiKey ? app.sessionOrApiKey(options.apiKey) : app.authenticate]
      : []),
    ...(options.onRequest ?? []),
  ]
  const { kind, status, data } = endpoint
  const enveloped = data !== undefined
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.request ? { body: endpoint.request } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(kind === 'stream' || kind === 'file' ? {} : { response: { [status]: endpoint.response } }),
    },
    config: { declaredByDefineRoute: true },
    ...(onRequest.length > 0 ? { onRequest } : {}),
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    async handler(request, reply) {
      // Fastify validated params, body and query with the endpoint's own schemas.
      const result = await options.handler({
        params: request.params,
        body: request.body,
        query: request.query,
        user: request.user,
        request,
        reply,
      } as RouteInput<E, A>)
      if (result === reply) return reply
      if (kind === 'stream') return reply.code(200).headers(EVENT_STREAM_HEADERS).send(result)
      if (kind === 'file') return sendFile(reply, result as FileReply)
      if (status !== 200) reply.code(status)
      return enveloped ? { success: true, data: result } : result
    },
  })
}
