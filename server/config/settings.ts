/**
 * What the configuration holds (`Config` and its parts) and its defaults and bounds; the
 * environment is read and checked in env-schema.ts and ../config.ts, the entry every layer imports.
 */
export const APP_SECRET_MIN_LENGTH = 32
export const DEFAULT_LLM_TIMEOUT_MS = 60_000
/** The most tokens one answer may have the model write (LLM_MAX_TOKENS), D84. */
export const DEFAULT_LLM_MAX_TOKENS = 2048
export const LLM_MAX_TOKENS_RANGE = { min: 64, max: 32_768 } as const
/** Answers one person may have written at once, on every instance together (LLM_CONCURRENCY_PER_USER), D84. */
export const DEFAULT_LLM_CONCURRENCY_PER_USER = 2
/** Visitors' answers one published assistant writes at once, on every instance together (PUBLISHED_CONCURRENCY), D119. */
export const DEFAULT_PUBLISHED_CONCURRENCY = 20
/** Tokens a person's answers may spend a UTC day, everywhere together (USAGE_TOKENS_PER_DAY; 0: no limit), D119. */
export const DEFAULT_USAGE_TOKENS_PER_DAY = 1_000_000
/** Requests one API key may make a minute (API_KEY_REQUESTS_PER_MINUTE); a key may set fewer (D124). */
export const DEFAULT_API_KEY_REQUESTS_PER_MINUTE = 60
/** Tokens one API key's answers may spend a UTC day (API_KEY_TOKENS_PER_DAY); a key may set fewer (D124). */
export const DEFAULT_API_KEY_TOKENS_PER_DAY = 200_000
/** Passages of the user's documents in one prompt, in tokens (about 4 characters each). */
export const DEFAULT_RETRIEVAL_TOKEN_BUDGET = 2000
/**
 * How much of a conversation's chosen documents may go into a prompt whole (D71): a person asking
 * about one document expects it read, and the smallest upload (10 KB) is already past 2,000 tokens.
 */
export const DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET = 8000
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

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
   * CITATION_JUDGE=model: after an answer is checked, the sentences the check cannot vouch for are
   * asked of the model once, its verdict shown as the model's (D140). Needs a model.
   */
  citationJudge: boolean
  /**
   * Answers one person may have written at once (each makes at most one model call at a time);
   * one more is refused with 429 until one ends (D84).
   */
  llmConcurrencyPerUser: number
  /** Visitors' answers one published assistant writes at once; the rest wait briefly, then are told it is busy (D119). */
  publishedConcurrency: number
  /** Tokens one person's answers may spend a UTC day (app, published assistants, API); 0: no limit (D119). */
  usageTokensPerDay: number
  /** Origins whose pages may call the OpenAI-compatible endpoint from a browser (API_CORS_ORIGINS); empty: none (D130). */
  apiCorsOrigins: string[]
  /** The most a personal API key may use (issue 38, D124); a person may set lower limits on a key. */
  apiKeyLimits: ApiKeyLimits
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

export type ApiKeyLimits = { requestsPerMinute: number; tokensPerDay: number }

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
  /** LLM_MODELS: the models an assistant may name (issue 36); empty or absent: only `model`. */
  models?: string[]
}

export const METRICS_TOKEN_MIN_LENGTH = 16
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

export const GOOGLE_TOKEN_KEY_MIN_LENGTH = 32

/** Google's own origins; GOOGLE_EMULATOR_URL replaces all of them, keeping Google's paths. */
export const GOOGLE_ORIGINS = {
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

/** An OpenAI-compatible embeddings endpoint (EMBEDDING_MODEL and the rest), for hybrid retrieval. */
export type EmbeddingConfig = { baseUrl: string; apiKey: string; model: string; timeoutMs: number }
