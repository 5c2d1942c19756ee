/**
 * The server's whole configuration, read once from the environment and checked with zod: a bad
 * value stops the start with a message that names the variable. Empty strings count as unset, so
 * a blank line in an env file means "use the default".
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { GOOGLE_SIGN_IN_CALLBACK_PATH } from '#contracts/auth.ts'
import { DRIVE_CALLBACK_PATH } from '#contracts/drive.ts'

export const APP_SECRET_MIN_LENGTH = 32
const APP_SECRET_FILE = 'app-secret'
export const DEFAULT_LLM_TIMEOUT_MS = 60_000
/** The most tokens one answer may have the model write (LLM_MAX_TOKENS), D84. */
export const DEFAULT_LLM_MAX_TOKENS = 2048
export const LLM_MAX_TOKENS_RANGE = { min: 64, max: 32_768 } as const
/** Answers one person may have written at once, on every instance together (LLM_CONCURRENCY_PER_USER), D84. */
export const DEFAULT_LLM_CONCURRENCY_PER_USER = 2
/** Passages of the user's documents in one prompt, in tokens (about 4 characters each). */
export const DEFAULT_RETRIEVAL_TOKEN_BUDGET = 2000
/**
 * How much of a conversation's chosen documents may go into a prompt whole (D71): a person asking
 * about one document expects it read, and the smallest upload (10 KB) is already past 2,000 tokens.
 */
export const DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET = 8000
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export type LogLevel = (typeof LOG_LEVELS)[number]

/** Where the data lives: a PGlite directory, a throwaway in-memory PGlite, or a PostgreSQL server. */
export type DatabaseConfig =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string }

export type Config = {
  port: number
  host: string
  database: DatabaseConfig
  /** Absolute path; holds the PGlite files, the generated app secret and the lock. */
  dataDir: string
  appSecret: string
  publicUrl: string
  /** `new URL(publicUrl).origin`: what a same-site request's `Origin` header says. */
  publicOrigin: string
  /** True when PUBLIC_URL is https: cookies get `Secure`, HSTS is sent. */
  secureCookies: boolean
  logLevel: LogLevel
  nodeEnv: string
  isProduction: boolean
  /** The OpenAI-compatible model answers come from; null: extractive answers, no model. */
  llm: LlmConfig | null
  /**
   * Answers one person may have written at once (each makes at most one model call at a time);
   * one more is refused with 429 until one ends (D84).
   */
  llmConcurrencyPerUser: number
  /**
   * How much of the user's text retrieval hands the assistant per question: ranked passages, and
   * a scoped conversation's documents whole when they fit (0: never whole).
   */
  retrieval: { tokenBudget: number; wholeDocumentTokenBudget: number }
  /** An OpenAI-compatible /embeddings endpoint for hybrid retrieval; null: keyword retrieval only. */
  embedding: EmbeddingConfig | null
  /** The Google OAuth client and where Google lives; null: Google Drive is not configured. */
  google: GoogleConfig | null
  /**
   * Fastify's `trustProxy`: false (the default) uses the socket's address; true (any proxy) or
   * the proxies' addresses/CIDRs take the client's address from X-Forwarded-For (D35).
   */
  trustProxy: boolean | string[]
  /**
   * Sign-ups allowed per client address and hour (D34). Raise it where many people share
   * one address (an office behind one NAT); the per-email limit still holds.
   */
  signupLimitPerAddress: number
  /** Prometheus metrics at /metrics: off unless METRICS=1 or METRICS_TOKEN (then bearer-only). */
  metrics: MetricsConfig
  /** How long a shutdown waits for open responses (streams included) before cutting them. */
  shutdownGraceMs: number
  /** How often connected Drives are synced in the background (DRIVE_SYNC_INTERVAL); 0: never. */
  driveSyncIntervalMs: number
  /** Reading scanned pages and images (OCR, OCR_LANGUAGES…); null: OCR=off (D74). */
  ocr: OcrConfig | null
  /** How mail (password resets, email confirmations) leaves the server (D76). */
  mail: MailConfig
  /** Who may create an account (SIGNUP, SIGNUP_DOMAINS). */
  signup: SignupConfig
  /** EMAIL_VERIFICATION=required: a new account confirms its email by a mailed link before signing in. */
  emailVerification: boolean
}

/**
 * `smtp`: sent through SMTP_URL. `log`: no SMTP_URL outside production, so each mail (with its
 * link) is written to the server log. `off`: production without SMTP_URL; what needs mail says so.
 */
export type MailConfig =
  | { transport: 'smtp'; url: string; from: string }
  | { transport: 'log' | 'off'; from: string }

export type SignupMode = 'open' | 'domains' | 'closed'
export type SignupConfig = { mode: SignupMode; domains: string[] }

/** Tesseract's languages ('eng+fra') and the limits on one document's OCR. */
export type OcrConfig = { languages: string; maxPages: number; pageTimeMs: number }
export const DEFAULT_OCR_MAX_PAGES = 200
export const DEFAULT_OCR_PAGE_TIMEOUT_MS = 30_000

export type MetricsConfig = { enabled: boolean; token: string | null }

/** An OpenAI-compatible chat model (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS, LLM_MAX_TOKENS). */
export type LlmConfig = {
  baseUrl: string
  apiKey: string
  model: string
  timeoutMs: number
  /** The most tokens one answer may take (`max_tokens`); DEFAULT_LLM_MAX_TOKENS when absent. */
  maxTokens?: number
}

export const METRICS_TOKEN_MIN_LENGTH = 16
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

export const GOOGLE_TOKEN_KEY_MIN_LENGTH = 32

/** Google's own origins; GOOGLE_EMULATOR_URL replaces all of them, keeping Google's paths. */
const GOOGLE_ORIGINS = {
  accounts: 'https://accounts.google.com',
  oauth2: 'https://oauth2.googleapis.com',
  apis: 'https://www.googleapis.com',
} as const

export type GoogleConfig = {
  clientId: string
  clientSecret: string
  /** PUBLIC_URL's origin + DRIVE_CALLBACK_PATH: what the Cloud console must list, exactly. */
  redirectUri: string
  /** PUBLIC_URL's origin + GOOGLE_SIGN_IN_CALLBACK_PATH: Sign in with Google's redirect (D77). */
  signInRedirectUri: string
  /** OAuth2Client `endpoints`; the certs URL is where ID tokens' keys are fetched from. */
  endpoints: {
    oauth2AuthBaseUrl: string
    oauth2TokenUrl: string
    oauth2RevokeUrl: string
    oauth2FederatedSignonPemCertsUrl: string
  }
  /** `drive({ rootUrl })`, ending in '/'. */
  driveRootUrl: string
  /** The secret the stored-token key is derived from: GOOGLE_TOKEN_KEY, else APP_SECRET. */
  tokenKey: string
  /** True when every Google call goes to GOOGLE_EMULATOR_URL. */
  emulated: boolean
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(1, 'PORT must be between 1 and 65535')
    .max(65535, 'PORT must be between 1 and 65535')
    .default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .refine((v) => v === 'memory:' || /^postgres(ql)?:\/\/.+/.test(v), {
      message: 'DATABASE_URL must be unset (PGlite in DATA_DIR), "memory:", or a postgres:// URL',
    })
    .optional(),
  DATA_DIR: z.string().default('./.data'),
  APP_SECRET: z
    .string()
    .min(APP_SECRET_MIN_LENGTH, `APP_SECRET must be at least ${APP_SECRET_MIN_LENGTH} characters`)
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// URL' })
    .optional(),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  NODE_ENV: z.string().default('development'),
  LLM_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'LLM_BASE_URL must be an http:// or https:// URL' })
    .optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce
    .number({ error: 'LLM_TIMEOUT_MS must be a number of milliseconds' })
    .int('LLM_TIMEOUT_MS must be a whole number of milliseconds')
    .positive('LLM_TIMEOUT_MS must be positive')
    .default(DEFAULT_LLM_TIMEOUT_MS),
  LLM_MAX_TOKENS: z.coerce
    .number({ error: 'LLM_MAX_TOKENS must be a number of tokens' })
    .int('LLM_MAX_TOKENS must be a whole number of tokens')
    .min(LLM_MAX_TOKENS_RANGE.min, `LLM_MAX_TOKENS must be at least ${LLM_MAX_TOKENS_RANGE.min} tokens`)
    .max(LLM_MAX_TOKENS_RANGE.max, `LLM_MAX_TOKENS must be at most ${LLM_MAX_TOKENS_RANGE.max} tokens`)
    .default(DEFAULT_LLM_MAX_TOKENS),
  LLM_CONCURRENCY_PER_USER: z.coerce
    .number({ error: 'LLM_CONCURRENCY_PER_USER must be a number of answers' })
    .int('LLM_CONCURRENCY_PER_USER must be a whole number of answers')
    .min(1, 'LLM_CONCURRENCY_PER_USER must be at least 1')
    .max(100, 'LLM_CONCURRENCY_PER_USER must be at most 100')
    .default(DEFAULT_LLM_CONCURRENCY_PER_USER),
  EMBEDDING_MODEL: z.string().optional(),
  EMBEDDING_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'EMBEDDING_BASE_URL must be an http:// or https:// URL' })
    .optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  RETRIEVAL_TOKEN_BUDGET: z.coerce
    .number({ error: 'RETRIEVAL_TOKEN_BUDGET must be a number of tokens' })
    .int('RETRIEVAL_TOKEN_BUDGET must be a whole number of tokens')
    .min(200, 'RETRIEVAL_TOKEN_BUDGET must be at least 200 tokens')
    .max(100_000, 'RETRIEVAL_TOKEN_BUDGET must be at most 100000 tokens')
    .default(DEFAULT_RETRIEVAL_TOKEN_BUDGET),
  WHOLE_DOCUMENT_TOKEN_BUDGET: z.coerce
    .number({ error: 'WHOLE_DOCUMENT_TOKEN_BUDGET must be a number of tokens' })
    .int('WHOLE_DOCUMENT_TOKEN_BUDGET must be a whole number of tokens')
    .min(0, 'WHOLE_DOCUMENT_TOKEN_BUDGET must be 0 (never whole) or more tokens')
    .max(200_000, 'WHOLE_DOCUMENT_TOKEN_BUDGET must be at most 200000 tokens')
    .default(DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET),
  DRIVE_SYNC_INTERVAL: z.coerce
    .number({ error: 'DRIVE_SYNC_INTERVAL must be a number of minutes' })
    .int('DRIVE_SYNC_INTERVAL must be a whole number of minutes')
    .min(0, 'DRIVE_SYNC_INTERVAL must be 0 (off) or more minutes')
    .default(15),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_EMULATOR_URL: z
    .url({ protocol: /^https?$/, error: 'GOOGLE_EMULATOR_URL must be an http:// or https:// URL' })
    .optional(),
  SIGNUP_LIMIT_PER_ADDRESS: z.coerce
    .number({ error: 'SIGNUP_LIMIT_PER_ADDRESS must be a number of sign-ups' })
    .int('SIGNUP_LIMIT_PER_ADDRESS must be a whole number of sign-ups')
    .min(1, 'SIGNUP_LIMIT_PER_ADDRESS must be at least 1')
    .default(10),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'TRUST_PROXY must be true, false, or a comma-separated list of proxy addresses/CIDRs',
    )
    .optional(),
  GOOGLE_TOKEN_KEY: z
    .string()
    .min(
      GOOGLE_TOKEN_KEY_MIN_LENGTH,
      `GOOGLE_TOKEN_KEY must be at least ${GOOGLE_TOKEN_KEY_MIN_LENGTH} characters`,
    )
    .optional(),
  METRICS: z.enum(['0', '1'], { error: 'METRICS must be 1 (on) or 0 (off)' }).default('0'),
  METRICS_TOKEN: z
    .string()
    .min(METRICS_TOKEN_MIN_LENGTH, `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`)
    .optional(),
  OCR: z.enum(['on', 'off'], { error: 'OCR must be on or off' }).default('on'),
  OCR_LANGUAGES: z
    .string()
    .regex(
      /^[a-z]{3}(_[a-z]+)?(\+[a-z]{3}(_[a-z]+)?)*$/,
      'OCR_LANGUAGES must be Tesseract language codes joined by +, e.g. eng or eng+fra',
    )
    .default('eng'),
  OCR_MAX_PAGES: z.coerce
    .number({ error: 'OCR_MAX_PAGES must be a number of pages' })
    .int('OCR_MAX_PAGES must be a whole number of pages')
    .min(1, 'OCR_MAX_PAGES must be at least 1 (OCR=off turns OCR off)')
    .max(10_000, 'OCR_MAX_PAGES must be at most 10000')
    .default(DEFAULT_OCR_MAX_PAGES),
  OCR_PAGE_TIMEOUT_MS: z.coerce
    .number({ error: 'OCR_PAGE_TIMEOUT_MS must be a number of milliseconds' })
    .int('OCR_PAGE_TIMEOUT_MS must be a whole number of milliseconds')
    .min(1000, 'OCR_PAGE_TIMEOUT_MS must be at least 1000')
    .max(600_000, 'OCR_PAGE_TIMEOUT_MS must be at most 600000')
    .default(DEFAULT_OCR_PAGE_TIMEOUT_MS),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: 'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
    })
    .optional(),
  MAIL_FROM: z.string().max(320, 'MAIL_FROM is too long').optional(),
  SIGNUP: z
    .enum(['open', 'domains', 'closed'], { error: 'SIGNUP must be open, domains or closed' })
    .default('open'),
  SIGNUP_DOMAINS: z
    .string()
    .regex(
      /^\s*[a-z0-9.-]+\.[a-z]{2,}(\s*,\s*[a-z0-9.-]+\.[a-z]{2,})*\s*$/i,
      'SIGNUP_DOMAINS must be a comma-separated list of domains, e.g. example.com,example.org',
    )
    .optional(),
  EMAIL_VERIFICATION: z
    .enum(['off', 'required'], { error: 'EMAIL_VERIFICATION must be off or required' })
    .default('off'),
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: 'SHUTDOWN_GRACE_MS must be a number of milliseconds' })
    .int('SHUTDOWN_GRACE_MS must be a whole number of milliseconds')
    .min(0, 'SHUTDOWN_GRACE_MS must not be negative')
    .default(DEFAULT_SHUTDOWN_GRACE_MS),
})

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
    llmConcurrencyPerUser: e.LLM_CONCURRENCY_PER_USER,
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

/** Mail, who may sign up, and email confirmation: each setting checked against the others. */
function accountsConfig(
  e: z.infer<typeof EnvSchema>,
  app: { isProduction: boolean; hostname: string },
): Pick<Config, 'mail' | 'signup' | 'emailVerification'> {
  const from = e.MAIL_FROM ?? `DocChat <no-reply@${app.hostname}>`
  const mail: MailConfig = e.SMTP_URL
    ? { transport: 'smtp', url: e.SMTP_URL, from }
    : { transport: app.isProduction ? 'off' : 'log', from }
  const domains = (e.SIGNUP_DOMAINS ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean)
  if (e.SIGNUP === 'domains' && domains.length === 0) {
    throw new ConfigError(
      'Invalid configuration:\n  SIGNUP_DOMAINS: required when SIGNUP=domains (the email domains that may sign up, e.g. example.com,example.org)',
    )
  }
  const emailVerification = e.EMAIL_VERIFICATION === 'required'
  if (emailVerification && mail.transport === 'off') {
    throw new ConfigError(
      'Invalid configuration:\n  EMAIL_VERIFICATION: required needs mail: set SMTP_URL (in production no mail is sent without it)',
    )
  }
  return { mail, signup: { mode: e.SIGNUP, domains }, emailVerification }
}

/**
 * OCR is on unless OCR=off; each language of OCR_LANGUAGES needs its data package installed
 * (`@tesseract.js-data/<code>`, from the npm registry): nothing is downloaded at run time, so a
 * missing one stops the start with the command that adds it.
 */
function ocrConfig(e: z.infer<typeof EnvSchema>): OcrConfig | null {
  if (e.OCR === 'off') return null
  const require = createRequire(import.meta.url)
  const missing = e.OCR_LANGUAGES.split('+').filter((code) => {
    try {
      require.resolve(`@tesseract.js-data/${code}`)
      return false
    } catch {
      return true
    }
  })
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  OCR_LANGUAGES: no language data installed for ${missing.join(', ')} (add it with \`npm install ${missing.map((code) => `@tesseract.js-data/${code}`).join(' ')}\`, or set OCR=off)`,
    )
  }
  return { languages: e.OCR_LANGUAGES, maxPages: e.OCR_MAX_PAGES, pageTimeMs: e.OCR_PAGE_TIMEOUT_MS }
}

function trustProxyConfig(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  return value.split(',').map((part) => part.trim())
}

/**
 * Google Drive needs an OAuth client (id and secret, both or neither). GOOGLE_EMULATOR_URL sends
 * every Google call to one origin at Google's own paths (tests, trying the app offline).
 */
function googleConfig(
  e: z.infer<typeof EnvSchema>,
  app: { publicOrigin: string; appSecret: string },
): GoogleConfig | null {
  const { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret, GOOGLE_EMULATOR_URL: emulator } = e
  if (clientId === undefined && clientSecret === undefined) {
    if (emulator !== undefined) {
      throw new ConfigError(
        'Invalid configuration:\n  GOOGLE_CLIENT_ID: required with GOOGLE_CLIENT_SECRET when GOOGLE_EMULATOR_URL is set (`npm run google:emulator` prints all three)',
      )
    }
    return null
  }
  if (clientId === undefined || clientSecret === undefined) {
    const missing = clientId === undefined ? 'GOOGLE_CLIENT_ID' : 'GOOGLE_CLIENT_SECRET'
    throw new ConfigError(
      `Invalid configuration:\n  ${missing}: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together (the OAuth client of type "Web application" from the Google Cloud console); set both, or neither to run without Google Drive`,
    )
  }
  const base = emulator === undefined ? undefined : new URL(emulator).origin
  const accounts = base ?? GOOGLE_ORIGINS.accounts
  const oauth2 = base ?? GOOGLE_ORIGINS.oauth2
  return {
    clientId,
    clientSecret,
    redirectUri: `${app.publicOrigin}${DRIVE_CALLBACK_PATH}`,
    signInRedirectUri: `${app.publicOrigin}${GOOGLE_SIGN_IN_CALLBACK_PATH}`,
    endpoints: {
      oauth2AuthBaseUrl: `${accounts}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${oauth2}/token`,
      oauth2RevokeUrl: `${oauth2}/revoke`,
      oauth2FederatedSignonPemCertsUrl: `${base ?? GOOGLE_ORIGINS.apis}/oauth2/v1/certs`,
    },
    driveRootUrl: `${base ?? GOOGLE_ORIGINS.apis}/`,
    tokenKey: e.GOOGLE_TOKEN_KEY ?? app.appSecret,
    emulated: base !== undefined,
  }
}

/** A model needs an endpoint and a model name; a key or model without an endpoint is a mistake. */
function llmConfig(e: z.infer<typeof EnvSchema>): LlmConfig | null {
  if (e.LLM_BASE_URL === undefined) {
    if (e.LLM_MODEL !== undefined || e.LLM_API_KEY !== undefined) {
      throw new ConfigError(
        'Invalid configuration:\n  LLM_BASE_URL: required when LLM_MODEL or LLM_API_KEY is set (the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 for Ollama)',
      )
    }
    return null
  }
  if (e.LLM_MODEL === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_MODEL: required when LLM_BASE_URL is set (the model name the endpoint serves, e.g. gpt-4o-mini or llama3.1)',
    )
  }
  return {
    baseUrl: e.LLM_BASE_URL,
    apiKey: e.LLM_API_KEY ?? '',
    model: e.LLM_MODEL,
    timeoutMs: e.LLM_TIMEOUT_MS,
    maxTokens: e.LLM_MAX_TOKENS,
  }
}

export type EmbeddingConfig = { baseUrl: string; apiKey: string; model: string; timeoutMs: number }

/** EMBEDDING_MODEL turns hybrid retrieval on; the endpoint and key default to the LLM_* ones. */
function embeddingConfig(e: z.infer<typeof EnvSchema>): EmbeddingConfig | null {
  if (e.EMBEDDING_MODEL === undefined) return null
  const baseUrl = e.EMBEDDING_BASE_URL ?? e.LLM_BASE_URL
  if (baseUrl === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  EMBEDDING_BASE_URL: required when EMBEDDING_MODEL is set and LLM_BASE_URL is not (an OpenAI-compatible endpoint serving /embeddings)',
    )
  }
  return {
    baseUrl,
    apiKey: e.EMBEDDING_API_KEY ?? e.LLM_API_KEY ?? '',
    model: e.EMBEDDING_MODEL,
    timeoutMs: e.LLM_TIMEOUT_MS,
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
