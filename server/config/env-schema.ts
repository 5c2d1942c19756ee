/**
 * Every environment variable the server reads, checked with zod: a bad value stops the start with
 * a message that names the variable. Empty strings are taken out before (../config.ts), so a blank
 * line in an env file means "use the default".
 */
import { z } from 'zod'
import {
  APP_SECRET_MIN_LENGTH,
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
  LOG_LEVELS,
  METRICS_TOKEN_MIN_LENGTH,
} from './settings.ts'

export const EnvSchema = z.object({
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
  /** Comma-separated: the models an assistant may be set to (issue 36); unset: only LLM_MODEL. */
  LLM_MODELS: z.string().optional(),
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
  CITATION_JUDGE: z
    .enum(['off', 'model'], {
      error:
        'CITATION_JUDGE must be off or model (the configured model judges the citations the check cannot vouch for)',
    })
    .default('off'),
  LLM_CONCURRENCY_PER_USER: z.coerce
    .number({ error: 'LLM_CONCURRENCY_PER_USER must be a number of answers' })
    .int('LLM_CONCURRENCY_PER_USER must be a whole number of answers')
    .min(1, 'LLM_CONCURRENCY_PER_USER must be at least 1')
    .max(100, 'LLM_CONCURRENCY_PER_USER must be at most 100')
    .default(DEFAULT_LLM_CONCURRENCY_PER_USER),
  PUBLISHED_CONCURRENCY: z.coerce
    .number({ error: 'PUBLISHED_CONCURRENCY must be a number of answers' })
    .int('PUBLISHED_CONCURRENCY must be a whole number of answers')
    .min(1, 'PUBLISHED_CONCURRENCY must be at least 1')
    .max(1000, 'PUBLISHED_CONCURRENCY must be at most 1000')
    .default(DEFAULT_PUBLISHED_CONCURRENCY),
  USAGE_TOKENS_PER_DAY: z.coerce
    .number({ error: 'USAGE_TOKENS_PER_DAY must be a number of tokens' })
    .int('USAGE_TOKENS_PER_DAY must be a whole number of tokens')
    .min(0, 'USAGE_TOKENS_PER_DAY must be 0 (no limit) or more tokens')
    .max(1_000_000_000_000, 'USAGE_TOKENS_PER_DAY must be at most 1000000000000 tokens')
    .default(DEFAULT_USAGE_TOKENS_PER_DAY),
  API_CORS_ORIGINS: z
    .string()
    .refine(
      (list) => list.split(',').every((o) => isExactOrigin(o.trim())),
      'API_CORS_ORIGINS must be a comma-separated list of exact origins, e.g. https://app.example.com,http://localhost:5173',
    )
    .optional(),
  API_KEY_REQUESTS_PER_MINUTE: z.coerce
    .number({ error: 'API_KEY_REQUESTS_PER_MINUTE must be a number of requests' })
    .int('API_KEY_REQUESTS_PER_MINUTE must be a whole number of requests')
    .min(1, 'API_KEY_REQUESTS_PER_MINUTE must be at least 1')
    .max(100_000, 'API_KEY_REQUESTS_PER_MINUTE must be at most 100000')
    .default(DEFAULT_API_KEY_REQUESTS_PER_MINUTE),
  API_KEY_TOKENS_PER_DAY: z.coerce
    .number({ error: 'API_KEY_TOKENS_PER_DAY must be a number of tokens' })
    .int('API_KEY_TOKENS_PER_DAY must be a whole number of tokens')
    .min(1, 'API_KEY_TOKENS_PER_DAY must be at least 1 token')
    .max(1_000_000_000, 'API_KEY_TOKENS_PER_DAY must be at most 1000000000 tokens')
    .default(DEFAULT_API_KEY_TOKENS_PER_DAY),
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

/** The environment as checked: every default filled in. */
export type CheckedEnv = z.infer<typeof EnvSchema>

/** `https://host[:port]` and nothing more: what a browser sends as Origin. */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}
