/**
 * Fastify gives every request its own pino child logger (bound to the request id), and builds it
 * whether or not anything is logged: pino's child() copies formatters and serialises the bindings,
 * and Fastify always passes an options object, which sends pino down its slow path. With the level
 * at warn that was ~10 % of a signed-in API call (bench/RESULTS.md). This factory hands out a
 * stand-in that makes the real child on the first line the level lets through, so every line
 * still carries `reqId`, and a request that logs nothing costs one small object.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'

type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]
type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type WithLevelCheck = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }

class LazyRequestLogger {
  readonly #parent: WithLevelCheck
  readonly #bindings: Bindings
  readonly #options: ChildOptions | undefined
  #child: FastifyBaseLogger | undefined

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions | undefined) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get level(): string {
    return this.#child?.level ?? this.#options?.level ?? this.#parent.level
  }

  set level(level: string) {
    this.#real().level = level
  }

  #real(): FastifyBaseLogger {
    if (this.#child === undefined) this.#child = this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }

  #enabled(level: Level): boolean {
    if (this.#child !== undefined || this.#options?.level !== undefined) return true
    return this.#parent.isLevelEnabled?.(level) ?? true
  }

  #log(level: Level, args: unknown[]): void {
    if (!this.#enabled(level)) return
    const real = this.#real()
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
    return this.#real().child(bindings, options)
  }
}

export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const opts = options.level === undefined && options.serializers === undefined ? undefined : options
  return new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger
}
