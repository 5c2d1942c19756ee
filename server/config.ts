/**
 * The server's whole configuration, read once from the environment and checked with zod: a bad
 * value stops the start with a message that names the variable. Empty strings count as unset, so
 * a blank line in an env file means "use the default". Every layer imports this file; the
 * variables are listed in config/env-schema.ts, the settings that go together are built in
 * config/sections.ts, and what the configuration holds is config/settings.ts.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { EnvSchema } from './config/env-schema.ts'
import {
  accountsConfig,
  citationJudgeConfig,
  embeddingConfig,
  googleConfig,
  llmConfig,
  ocrConfig,
  trustProxyConfig,
} from './config/sections.ts'
import { APP_SECRET_MIN_LENGTH, type Config, ConfigError, type DatabaseConfig } from './config/settings.ts'

export type {
  ApiKeyLimits,
  Config,
  DatabaseConfig,
  EmbeddingConfig,
  GoogleConfig,
  LlmConfig,
  LogLevel,
  MailConfig,
  MetricsConfig,
  OcrConfig,
  SignupConfig,
  SignupMode,
} from './config/settings.ts'
export {
  APP_SECRET_MIN_LENGTH,
  ConfigError,
  DEFAULT_API_KEY_REQUESTS_PER_MINUTE,
  DEFAULT_API_KEY_TOKENS_PER_DAY,
  DEFAULT_LLM_CONCURRENCY_PER_USER,
  DEFAULT_LLM_MAX_TOKENS,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_OCR_MAX_PAGES,
  DEFAULT_OCR_PAGE_TIMEOUT_MS,
  DEFAULT_PUBLISHED_CONCURRENCY,
  DEFAULT_RETRIEVAL_TOKEN_BUDGET,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_USAGE_TOKENS_PER_DAY,
  DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET,
  GOOGLE_TOKEN_KEY_MIN_LENGTH,
  LLM_MAX_TOKENS_RANGE,
  METRICS_TOKEN_MIN_LENGTH,
} from './config/settings.ts'

const APP_SECRET_FILE = 'app-secret'

type Env = Record<string, string | undefined>

export function loadConfig(env: Env = process.env): Config {
  const parsed = EnvSchema.safeParse(withoutBlanks(env))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${String(issue.path[0])}: ${issue.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const isProduction = e.NODE_ENV === 'production'
  const dataDir = resolve(e.DATA_DIR)
  const database = databaseConfig(e.DATABASE_URL, dataDir)
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`
  const url = new URL(publicUrl)
  const appSecret = e.APP_SECRET ?? generatedSecret({ isProduction, database, dataDir })
  return {
    port: e.PORT,
    host: e.HOST,
    database,
    dataDir,
    appSecret,
    publicUrl,
    publicOrigin: url.origin,
    secureCookies: url.protocol === 'https:',
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    isProduction,
    llm: llmConfig(e),
    citationJudge: citationJudgeConfig(e),
    llmConcurrencyPerUser: e.LLM_CONCURRENCY_PER_USER,
    publishedConcurrency: e.PUBLISHED_CONCURRENCY,
    usageTokensPerDay: e.USAGE_TOKENS_PER_DAY,
    apiCorsOrigins: (e.API_CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    apiKeyLimits: {
      requestsPerMinute: e.API_KEY_REQUESTS_PER_MINUTE,
      tokensPerDay: e.API_KEY_TOKENS_PER_DAY,
    },
    retrieval: {
      tokenBudget: e.RETRIEVAL_TOKEN_BUDGET,
      wholeDocumentTokenBudget: e.WHOLE_DOCUMENT_TOKEN_BUDGET,
    },
    embedding: embeddingConfig(e),
    google: googleConfig(e, { publicOrigin: url.origin, appSecret }),
    trustProxy: trustProxyConfig(e.TRUST_PROXY),
    signupLimitPerAddress: e.SIGNUP_LIMIT_PER_ADDRESS,
    metrics: { enabled: e.METRICS === '1' || e.METRICS_TOKEN !== undefined, token: e.METRICS_TOKEN ?? null },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    driveSyncIntervalMs: e.DRIVE_SYNC_INTERVAL * 60_000,
    ocr: ocrConfig(e),
    ...accountsConfig(e, { isProduction, hostname: url.hostname }),
  }
}

function withoutBlanks(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''))
}

function databaseConfig(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return { kind: 'pglite', dataDir: join(dataDir, 'pglite') }
  if (url === 'memory:') return { kind: 'memory' }
  return { kind: 'postgres', url }
}

/**
 * Outside production a missing APP_SECRET is generated once and kept beside the data, so
 * sessions survive a restart; an in-memory database gets a secret that dies with it.
 */
function generatedSecret(input: { isProduction: boolean; database: DatabaseConfig; dataDir: string }) {
  if (input.isProduction) {
    throw new ConfigError(
      `Invalid configuration:\n  APP_SECRET: required when NODE_ENV=production (at least ${APP_SECRET_MIN_LENGTH} random characters, e.g. from \`openssl rand -base64 48\`)`,
    )
  }
  const fresh = randomBytes(48).toString('base64url')
  if (input.database.kind === 'memory') return fresh
  const file = join(input.dataDir, APP_SECRET_FILE)
  mkdirSync(input.dataDir, { recursive: true, mode: 0o700 })
  try {
    // 'wx': two processes starting at once must not each write their own secret.
    writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' })
    return fresh
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const kept = readFileSync(file, 'utf8').trim()
  if (kept.length < APP_SECRET_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid configuration:\n  APP_SECRET: the stored secret in ${file} is shorter than ${APP_SECRET_MIN_LENGTH} characters; delete the file to generate a new one`,
    )
  }
  return kept
}
