/**
 * What went wrong at Google, in the few kinds the server acts on, read from the GaxiosError the
 * real clients throw (Drive's `{error:{errors:[{reason}]}}`, OAuth's `{error}`); and the bounded,
 * jittered exponential backoff for the kinds worth retrying. Google's own advice for 429,
 * rateLimitExceeded, userRateLimitExceeded and 5xx is exactly that:
 * https://developers.google.com/workspace/drive/api/guides/limits#exponential
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { gaxios } from 'google-auth-library'
import { isGaxiosError } from './google-libraries.ts'

export type GoogleFailureKind =
  /** The refresh token is revoked or expired (invalid_grant), or Google no longer accepts the tokens. */
  | 'revoked'
  /** The grant lacks a Drive read scope (the person unticked it on the consent page). */
  | 'insufficient-scope'
  /** 429, rate-limit reasons, 5xx: retried, then "busy". */
  | 'busy'
  | 'not-found'
  /** A file Drive will not hand over (fileNotDownloadable, exportSizeLimitExceeded, …). */
  | 'forbidden'
  /** No answer at all (DNS, refused, reset, time-out). */
  | 'unreachable'
  /** Anything else: a request of ours Google refused (a bug on our side). */
  | 'other'

export type GoogleFailure = {
  kind: GoogleFailureKind
  status: number | undefined
  reason: string | undefined
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'backendError'])
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT'])

type ErrorBody = {
  error?: string | { code?: number; status?: string; errors?: { reason?: string }[] }
  error_description?: string
}

/** The error body; a streamed download's error arrives as a JSON string. */
function bodyOf(error: gaxios.GaxiosError): ErrorBody | undefined {
  const data: unknown = error.response?.data
  if (typeof data === 'string') {
    try {
      return JSON.parse(data) as ErrorBody
    } catch {
      return undefined
    }
  }
  return data && typeof data === 'object' ? (data as ErrorBody) : undefined
}

export function classifyGoogleError(error: unknown): GoogleFailure {
  if (!isGaxiosError(error)) return { kind: 'other', status: undefined, reason: undefined }
  const status = error.response?.status
  if (status === undefined) return { kind: 'unreachable', status, reason: String(error.code ?? '') }
  const body = bodyOf(error)
  // OAuth endpoints: `{ error: 'invalid_grant', error_description }` (a refresh that failed).
  if (typeof body?.error === 'string') {
    const reason = body.error
    if (reason === 'invalid_grant' || reason === 'unauthorized_client')
      return { kind: 'revoked', status, reason }
    if (status === 429 || status >= 500) return { kind: 'busy', status, reason }
    return { kind: 'other', status, reason }
  }
  const reason = body?.error?.errors?.[0]?.reason
  if (status === 429 || status >= 500 || (reason !== undefined && RATE_LIMIT_REASONS.has(reason))) {
    return { kind: 'busy', status, reason }
  }
  if (status === 401) return { kind: 'revoked', status, reason }
  if (status === 404) return { kind: 'not-found', status, reason }
  if (status === 403 && reason !== undefined && SCOPE_REASONS.has(reason)) {
    return { kind: 'insufficient-scope', status, reason }
  }
  if (status === 403) return { kind: 'forbidden', status, reason }
  return { kind: 'other', status, reason }
}

export type RetryPolicy = {
  /** Attempts in all, the first included. */
  attempts: number
  /** The first wait's ceiling; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
}

/** 4 attempts: waits of up to 0.5 s, 1 s, 2 s (full jitter), so a busy answer comes within ~4 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 }

/**
 * Runs `call` again after a busy answer (429, rate-limit reasons, 5xx) with full-jitter
 * exponential backoff, at most `policy.attempts` times in all; any other failure, or the last
 * busy one, is thrown as is.
 */
export async function withBackoff<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  /** Which busy answers to retry (all of them unless told): a call that is not idempotent narrows it. */
  retryable: (error: unknown) => boolean = () => true,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (attempt >= policy.attempts || classifyGoogleError(error).kind !== 'busy' || !retryable(error))
        throw error
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
      await sleep(Math.random() * ceiling)
    }
  }
}
