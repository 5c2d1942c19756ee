/**
 * The app's logging (README D12): pino, attached to Fastify by the app rather than handed to it.
 *
 * Given a logger, Fastify does per request, logged or not: makes a child logger, builds the
 * objects of its "incoming request" / "request completed" lines, and adds two listeners and two
 * clock reads to every response to time it. At `LOG_LEVEL=warn` that machinery was 11 % of a
 * signed-in `/auth/me` (bench/RESULTS.md). So Fastify runs without a logger, and
 * `attachLogging` gives the app the same logs for less:
 * - `app.log` is the pino root;
 * - the first onRequest hook gives each request (and its reply) a `log` bound to `reqId` that
 *   makes its pino child only when its level lets a first line through;
 * - the two per-request lines, at info, come from onRequest/onResponse hooks that exist only when
 *   the level is info or lower.
 */
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
  LogController,
} from 'fastify'
import { type Logger, stdSerializers } from 'pino'

type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]
type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

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
 * redacted, email addresses masked, in the path as in the query.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?')
  const path = at === -1 ? url : url.slice(0, at)
  if (at === -1) return maskEmails(safeDecode(path))
  const query = [...new URLSearchParams(url.slice(at + 1))]
    .map(
      ([key, value]) => `${key}=${SECRET_PARAMS.has(key.toLowerCase()) ? '[redacted]' : maskEmails(value)}`,
    )
    .join('&')
  return `${maskEmails(safeDecode(path))}?${query}`
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

/** A child of `parent` that is made on the first line the level lets through. */
export class LazyLogger {
  readonly #parent: Logger
  readonly #bindings: Bindings
  readonly #options: ChildOptions | undefined
  #real: Logger | undefined

  constructor(parent: Logger, bindings: Bindings, options?: ChildOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  #resolve(): Logger {
    this.#real ??= this.#parent.child(this.#bindings, this.#options)
    return this.#real
  }

  isLevelEnabled(level: string): boolean {
    // A level of its own is pino's to interpret: make the child.
    if (this.#real !== undefined || this.#options?.level !== undefined)
      return this.#resolve().isLevelEnabled(level)
    return this.#parent.isLevelEnabled(level)
  }

  get level(): string {
    return this.#real?.level ?? this.#options?.level ?? this.#parent.level
  }

  set level(level: string) {
    this.#resolve().level = level
  }

  #log(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return
    const real = this.#resolve()
    ;(real[level] as (...a: unknown[]) => void).apply(real, args)
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args)
  }
  error(...args: unknown[]): void {
    this.#log('error', args)
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args)
  }
  info(...args: unknown[]): void {
    this.#log('info', args)
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args)
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args)
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#resolve().child(bindings, options)
  }
}

/**
 * Fastify's own per-request lines, for an app whose request loggers attachLogging sets: the two
 * info lines come from its hooks (Fastify's "incoming request" would go to the null logger it
 * gave the request, and its "request completed" would repeat ours); error lines stay Fastify's.
 */
export class AppLogLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(...args: Parameters<LogController['requestCompleted']>): void {
    if (args[0]) super.requestCompleted(...args)
  }
}

/**
 * Call right after `Fastify({ logger: false, logController: new AppLogLines() })`, before any
 * plugin, so every route gets the hooks.
 */
export function attachLogging(app: FastifyInstance, root: Logger): void {
  app.log = root
  // Callback style: this runs on every request.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const log = new LazyLogger(root, { reqId: request.id }) as unknown as FastifyBaseLogger
    request.log = log
    reply.log = log
    done()
  })
  if (!root.isLevelEnabled('info')) return
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    request.log.info({ req: request }, 'incoming request')
    done()
  })
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
    done()
  })
}
