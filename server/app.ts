/**
 * Builds the Fastify app: external plugins (headers, cookies, rate limits), then app plugins
 * (errors, request guards, database, authentication, chat, Google Drive), then the routes, then the SPA. Used by
 * main.ts and by every server test (`app.inject`); nothing listens here.
 */
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { type Logger, type LoggerOptions, pino } from 'pino'
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './auth/rate-limits.ts'
import type { Config, LogLevel } from './config.ts'
import type { RetryPolicy } from './google/google-errors.ts'
import { authenticationPlugin } from './plugins/app/authentication.ts'
import { chatPlugin } from './plugins/app/chat.ts'
import { databasePlugin } from './plugins/app/database.ts'
import { BODY_LIMIT_BYTES, errorHandlerPlugin } from './plugins/app/error-handler.ts'
import { googleDrivePlugin } from './plugins/app/google-drive.ts'
import { requestGuardsPlugin } from './plugins/app/request-guards.ts'
import { cookiesPlugin } from './plugins/external/cookies.ts'
import { rateLimitPlugin } from './plugins/external/rate-limit.ts'
import { securityHeadersPlugin } from './plugins/external/security-headers.ts'
import { spaPlugin } from './plugins/external/spa.ts'
import { AppLogLines, attachLogging, LOG_SERIALIZERS } from './request-logger.ts'
import { authRoutes } from './routes/auth/auth-routes.ts'
import { chatRoutes } from './routes/chat/chat-routes.ts'
import { googleConnectRoutes } from './routes/google-drive/connect-routes.ts'
import { googleDriveRoutes } from './routes/google-drive/drive-routes.ts'
import { healthRoutes } from './routes/health/health-routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

/** Vite's output at the repository root. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url))

export type BuildAppOptions = {
  /**
   * false: no logs. Default: pino at LOG_LEVEL with secrets redacted, pretty on a terminal outside
   * production. An object keeps the redaction and sends the lines to `stream` (tests read them).
   */
  logger?: false | LogOptions
  /** Per-limit overrides of DEFAULT_AUTH_RATE_LIMITS (tests use small ones). */
  rateLimits?: Partial<AuthRateLimits>
  /** Where the built SPA is; default DEFAULT_DIST_DIR. */
  distDir?: string
  /** The clock for token issue and expiry and chat timestamps; tests move it to expire tokens. */
  now?: () => Date
  /** Backoff for Google Drive's busy answers (default DEFAULT_RETRY_POLICY); tests shorten it. */
  googleRetry?: Partial<RetryPolicy>
}

export type LogOptions = { level?: LogLevel; stream?: { write: (line: string) => void } }

export async function buildApp(config: Config, options: BuildAppOptions = {}) {
  // No logger for Fastify itself: attachLogging gives the app its logs for less (README D12).
  const app = Fastify({
    logger: false,
    logController: new AppLogLines(),
    bodyLimit: BODY_LIMIT_BYTES,
  }).withTypeProvider<ZodTypeProvider>()
  if (options.logger !== false) attachLogging(app, appLogger(config, options.logger))
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('config', config)

  try {
    await app.register(errorHandlerPlugin)
    await app.register(securityHeadersPlugin, { https: config.secureCookies })
    await app.register(cookiesPlugin)
    await app.register(rateLimitPlugin)
    await app.register(requestGuardsPlugin, { publicOrigin: config.publicOrigin })
    await app.register(databasePlugin, { config })
    const now = options.now ?? (() => new Date())
    await app.register(authenticationPlugin, { appSecret: config.appSecret, now })
    await app.register(chatPlugin, {
      llm: config.llm,
      retrieval: config.retrieval,
      embedding: config.embedding,
      now,
    })
    await app.register(googleDrivePlugin, {
      google: config.google,
      now,
      ...(options.googleRetry ? { retry: options.googleRetry } : {}),
    })

    await app.register(healthRoutes)
    await app.register(authRoutes, { rateLimits: { ...DEFAULT_AUTH_RATE_LIMITS, ...options.rateLimits } })
    await app.register(chatRoutes)
    await app.register(googleDriveRoutes)
    await app.register(googleConnectRoutes)

    await app.register(spaPlugin, { distDir: options.distDir ?? DEFAULT_DIST_DIR })
  } catch (error) {
    // Whatever opened before the failure (the database, its lock) must be released.
    await app.close().catch(() => undefined)
    throw error
  }
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>

function appLogger(config: Config, custom: LogOptions = {}): Logger {
  const pretty = !config.isProduction && process.stdout.isTTY && !custom.stream
  const options: LoggerOptions = {
    level: custom.level ?? config.logLevel,
    serializers: LOG_SERIALIZERS,
    // Fastify's request serializer logs no headers today; this keeps secrets out if that changes.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  }
  return custom.stream ? pino(options, custom.stream) : pino(options)
}
