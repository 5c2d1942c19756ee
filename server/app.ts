/**
 * Builds the Fastify app: the shared HTTP pieces (errors, security headers, cookies, request
 * guards), the database, then one plugin per domain (operations, mail, auth, answering, jobs, the
 * library, Google Drive, assistants, chat, the account as a whole), each with its calls, then the
 * SPA. Each plugin names the plugins it needs (fastify-plugin `dependencies`), and Fastify refuses to start when one is missing or comes
 * later. Used by main.ts and by every server test (`app.inject`); nothing listens here.
 */
import { maxHeaderSize } from 'node:http'
import { fileURLToPath } from 'node:url'
import cookie from '@fastify/cookie'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { type Logger, type LoggerOptions, pino } from 'pino'
import { accountPlugin } from './account/account-plugin.ts'
import { answeringPlugin } from './answering/answering-plugin.ts'
import { apiKeysPlugin } from './api-keys/api-keys-plugin.ts'
import { assistantsPlugin } from './assistants/assistants-plugin.ts'
import { authPlugin } from './auth/auth-plugin.ts'
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from './auth/rate-limits.ts'
import { chatPlugin } from './chat/chat-plugin.ts'
import type { Config, LogLevel } from './config.ts'
import { databasePlugin } from './db/database-plugin.ts'
import { documentsPlugin } from './documents/documents-plugin.ts'
import type { DriveFolders } from './drive/drive-folders.ts'
import { drivePlugin } from './drive/drive-plugin.ts'
import type { RetryPolicy } from './drive/google-errors.ts'
import {
  BODY_LIMIT_BYTES,
  clientErrorReply,
  errorHandlerPlugin,
  frameworkErrorReply,
} from './http/error-handler.ts'
import { rateLimitPlugin } from './http/rate-limit.ts'
import { requestActivityPlugin } from './http/request-activity.ts'
import { requestGuardsPlugin } from './http/request-guards.ts'
import { LOG_SERIALIZERS } from './http/request-logger.ts'
import { securityHeadersPlugin } from './http/security-headers.ts'
import {
  DEFAULT_SERVER_TIMEOUTS,
  fastifyTimeoutOptions,
  type ServerTimeouts,
} from './http/server-timeouts.ts'
import { spaPlugin } from './http/spa.ts'
import { jobsPlugin } from './jobs/jobs-plugin.ts'
import { mailPlugin } from './mail/mail-plugin.ts'
import { openAiCompatPlugin } from './openai-compat/openai-compat-plugin.ts'
import { operationsPlugin } from './operations/operations-plugin.ts'
import { publishingPlugin } from './publishing/publishing-plugin.ts'
import type { VisitorBudgets } from './publishing/visitor-budgets.ts'
import { referencePlugin } from './reference/reference-plugin.ts'
import { usagePlugin } from './usage/usage-plugin.ts'

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
  /** Per-timeout overrides of DEFAULT_SERVER_TIMEOUTS (D32); tests use short ones. */
  timeouts?: Partial<ServerTimeouts>
  /** The background job worker's lease and polling (tests shorten them). */
  jobs?: { leaseMs?: number; pollMs?: number; concurrency?: number; perPerson?: number }
  /** How long the Drive ingest call waits for the files it queued (default 25 s). */
  ingestWaitMs?: number
  /** How long a streamed answer may stay silent before a keep-alive comment (tests shorten it). */
  streamHeartbeatMs?: number
  /** Overrides DRIVE_SYNC_INTERVAL (tests use milliseconds). */
  driveSyncIntervalMs?: number
  /** Replaces the Drive's folders as assistants read them (tests of the assistants without a Drive). */
  driveFolders?: DriveFolders
  /** Admits or refuses each answer to a published assistant's visitor (issue 37); tests pass their own. */
  visitorBudgets?: VisitorBudgets
}

export type LogOptions = { level?: LogLevel; stream?: { write: (line: string) => void } }

export async function buildApp(config: Config, options: BuildAppOptions = {}) {
  // Fastify's own logger, on our pino root (D64 supersedes D12's hand-made request logger).
  const app = Fastify({
    ...(options.logger === false
      ? { logger: false }
      : { loggerInstance: appLogger(config, options.logger) as FastifyBaseLogger }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A path parameter may be as long as any request Node accepts, so that the contract's schema
    // judges an over-long id or share token (its 400 and sentence) instead of the router (past
    // find-my-way's default of 100 characters, 414 "The address is too long"). That default
    // guards regex parameters against slow matching; no route has one.
    routerOptions: { maxParamLength: maxHeaderSize },
    // Opening the embedded database (initdb on a new data directory, migrations) can outlast
    // Fastify's 10 s plugin limit on a busy machine; a slow start is better than none.
    pluginTimeout: 120_000,
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: clientErrorReply,
    // Off unless TRUST_PROXY says which proxies to believe (D35).
    trustProxy: config.trustProxy,
    ...fastifyTimeoutOptions({ ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts }),
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('config', config)

  try {
    await app.register(errorHandlerPlugin)
    await app.register(securityHeadersPlugin, { https: config.secureCookies })
    await app.register(cookie)
    await app.register(requestGuardsPlugin, { publicOrigin: config.publicOrigin })
    await app.register(requestActivityPlugin)
    await app.register(databasePlugin, { config })
    await app.register(operationsPlugin, { metrics: config.metrics })
    const now = options.now ?? (() => new Date())
    await app.register(rateLimitPlugin, { now })
    await app.register(mailPlugin, { mail: config.mail })
    const rateLimits = {
      ...DEFAULT_AUTH_RATE_LIMITS,
      registerPerIp: { ...DEFAULT_AUTH_RATE_LIMITS.registerPerIp, max: config.signupLimitPerAddress },
      ...options.rateLimits,
    }
    await app.register(authPlugin, { appSecret: config.appSecret, google: config.google, now, rateLimits })
    // Right after sign-in: the library's calls (documents) take a key too (issue 38, D124).
    await app.register(apiKeysPlugin, { now })
    await app.register(answeringPlugin, {
      llm: config.llm,
      retrieval: config.retrieval,
      embedding: config.embedding,
      drive: config.google !== null,
      citationJudge: config.citationJudge,
    })
    await app.register(jobsPlugin, { now, ...options.jobs })
    // Below every domain whose answers it counts (the chat, publishing, the API).
    await app.register(usagePlugin, { now })
    // Hybrid retrieval: what a background job indexed (a Drive file, an upload) is embedded next,
    // in the background (D19).
    app.jobs.onDone((job) => {
      void app.embeddings?.schedule(job.userId)
    })
    await app.register(documentsPlugin, { now })
    await app.register(drivePlugin, {
      google: config.google,
      now,
      ...(options.ingestWaitMs !== undefined ? { ingestWaitMs: options.ingestWaitMs } : {}),
      syncIntervalMs: options.driveSyncIntervalMs ?? config.driveSyncIntervalMs,
      ...(options.googleRetry ? { retry: options.googleRetry } : {}),
    })
    await app.register(assistantsPlugin, {
      now,
      models: config.llm?.models ?? [],
      ...(options.driveFolders ? { driveFolders: options.driveFolders } : {}),
    })
    // After the assistants: a conversation may be with one (issue 36).
    await app.register(chatPlugin, {
      now,
      answersPerPerson: config.llmConcurrencyPerUser,
      heartbeatMs: options.streamHeartbeatMs,
    })
    const distDir = options.distDir ?? DEFAULT_DIST_DIR
    // Above the assistants, beside the chat: visitors of published assistants (issue 37).
    await app.register(publishingPlugin, {
      now,
      visitorBudgets: options.visitorBudgets,
      distDir,
      heartbeatMs: options.streamHeartbeatMs,
    })
    // Beside chat and publishing: programs asking with an API key (issue 38).
    await app.register(openAiCompatPlugin, { now })
    await app.register(accountPlugin, { rateLimits })
    // The OpenAPI document of every call above, and its reference page (D127).
    await app.register(referencePlugin)
    await app.register(spaPlugin, { distDir })
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
