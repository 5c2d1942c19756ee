/**
 * The app's logger (README D12): pino, with child loggers that cost nothing until they log.
 *
 * Fastify gives every request its own child logger (bound to the request id) and builds it whether
 * or not anything is logged: pino's child() copies formatters and serialises the bindings, and
 * Fastify always passes an options object, which sends pino down its slow path. With the level at
 * warn that was ~10 % of a signed-in API call (bench/RESULTS.md). Here every child() hands out a
 * stand-in that makes the real pino child on the first line the level lets through, so every line
 * still carries `reqId` and a request that logs nothing costs one small object.
 *
 * The stand-ins come from the logger instance itself (`lazyLogger(pino)`) rather than from a
 * `childLoggerFactory`: Fastify checks a custom factory's every child for the seven logger methods,
 * per request; children of the logger instance go through its default factory, unchecked.
 */
import type { FastifyBaseLogger } from 'fastify'
import { LogController } from 'fastify'
import type { Logger } from 'pino'

type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]
type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
/** What a lazy logger stands on: pino, or another lazy logger. */
type Parent = Logger | LazyLogger

class LazyLogger {
  readonly #parent: Parent
  readonly #bindings: Bindings
  readonly #options: ChildOptions | undefined
  #real: Logger | undefined

  constructor(parent: Parent, bindings: Bindings, options: ChildOptions | undefined) {
    this.#parent = parent
    this.#bindings = bindings
    // Fastify passes `{}` for "no options"; pino takes a slower path for any options object.
    this.#options = options?.level === undefined && options?.serializers === undefined ? undefined : options
  }

  /** The pino child this stands for, made on first use. */
  #resolve(): Logger {
    if (this.#real === undefined) {
      const parent = #resolve in this.#parent ? this.#parent.#resolve() : this.#parent
      this.#real = parent.child(this.#bindings, this.#options)
    }
    return this.#real
  }

  isLevelEnabled(level: string): boolean {
    // A level of its own (a route's logLevel) is pino's to interpret: make the child.
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
    return new LazyLogger(this, bindings, options) as unknown as FastifyBaseLogger
  }
}

/**
 * `pino` as Fastify's `loggerInstance`: logs as pino does, and its children (Fastify's own root,
 * each request's logger, their children) are made when they first log a line.
 */
export function lazyLogger(logger: Logger): FastifyBaseLogger {
  return Object.assign(Object.create(logger) as Logger, {
    child: (bindings: Bindings, options?: ChildOptions) =>
      new LazyLogger(logger, bindings, options) as unknown as FastifyBaseLogger,
  })
}

/**
 * Fastify's per-request lines ("incoming request", "request completed") are info lines, and
 * Fastify builds their objects (and reads the clock) before the logger drops them; this skips
 * them up front when the request's logger would drop them. Errors are logged as before.
 */
export class RequestLines extends LogController {
  override incomingRequest(...args: Parameters<LogController['incomingRequest']>): void {
    if (logsInfo(args[0].log)) super.incomingRequest(...args)
  }

  override requestCompleted(...args: Parameters<LogController['requestCompleted']>): void {
    const [error, , reply] = args
    if (error || logsInfo(reply.log)) super.requestCompleted(...args)
  }
}

function logsInfo(log: FastifyBaseLogger): boolean {
  const { isLevelEnabled } = log as { isLevelEnabled?: (level: string) => boolean }
  return isLevelEnabled === undefined || isLevelEnabled.call(log, 'info')
}
