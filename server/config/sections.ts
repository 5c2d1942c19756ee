/**
 * The parts of the configuration that are more than one variable, each checked against the others
 * it goes with: accounts (mail, sign-up, email confirmation), OCR, Google, the model, embeddings.
 */
import { createRequire } from 'node:module'
import { GOOGLE_SIGN_IN_CALLBACK_PATH } from '#contracts/auth.ts'
import { DRIVE_CALLBACK_PATH } from '#contracts/drive.ts'
import type { CheckedEnv } from './env-schema.ts'
import {
  type Config,
  ConfigError,
  type EmbeddingConfig,
  GOOGLE_ORIGINS,
  type GoogleConfig,
  type LlmConfig,
  type MailConfig,
  type OcrConfig,
} from './settings.ts'

/** Mail, who may sign up, and email confirmation: each setting checked against the others. */
export function accountsConfig(
  e: CheckedEnv,
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
export function ocrConfig(e: CheckedEnv): OcrConfig | null {
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

export function trustProxyConfig(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  return value.split(',').map((part) => part.trim())
}

/**
 * Google Drive needs an OAuth client (id and secret, both or neither). GOOGLE_EMULATOR_URL sends
 * every Google call to one origin at Google's own paths (tests, trying the app offline).
 */
export function googleConfig(
  e: CheckedEnv,
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
export function llmConfig(e: CheckedEnv): LlmConfig | null {
  if (e.LLM_BASE_URL === undefined) {
    if (e.LLM_MODEL !== undefined || e.LLM_API_KEY !== undefined || e.LLM_MODELS !== undefined) {
      throw new ConfigError(
        'Invalid configuration:\n  LLM_BASE_URL: required when LLM_MODEL, LLM_MODELS or LLM_API_KEY is set (the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 for Ollama)',
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
    models: [...new Set((e.LLM_MODELS ?? '').split(',').map((m) => m.trim()))].filter((m) => m !== ''),
  }
}

/** CITATION_JUDGE=model asks the configured model, so it needs one (D140). */
export function citationJudgeConfig(e: CheckedEnv): boolean {
  if (e.CITATION_JUDGE === 'off') return false
  if (e.LLM_BASE_URL === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  CITATION_JUDGE: model needs a model: set LLM_BASE_URL and LLM_MODEL, or CITATION_JUDGE=off',
    )
  }
  return true
}

/** EMBEDDING_MODEL turns hybrid retrieval on; the endpoint and key default to the LLM_* ones. */
export function embeddingConfig(e: CheckedEnv): EmbeddingConfig | null {
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
