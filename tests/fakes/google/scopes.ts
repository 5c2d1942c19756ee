/**
 * OAuth scopes as Google treats them: `openid`, `email`, `profile` or a full
 * `https://www.googleapis.com/auth/…` URL (a bare `drive.readonly` is an invalid scope); `email`
 * and `profile` come back expanded to their userinfo URLs; and what each Drive scope may do.
 */

const AUTH_PREFIX = 'https://www.googleapis.com/auth/'
export const USERINFO_EMAIL = `${AUTH_PREFIX}userinfo.email`
export const USERINFO_PROFILE = `${AUTH_PREFIX}userinfo.profile`

/** Sign-in scopes: granted with the consent itself, never a checkbox on the consent page. */
const BASIC_SCOPES = new Set(['openid', USERINFO_EMAIL, USERINFO_PROFILE])

const DESCRIPTIONS: Record<string, string> = {
  openid: 'Associate you with your personal info on Google',
  [USERINFO_EMAIL]: 'See your primary Google Account email address',
  [USERINFO_PROFILE]: "See your personal info, including any personal info you've made publicly available",
  [`${AUTH_PREFIX}drive`]: 'See, edit, create, and delete all of your Google Drive files',
  [`${AUTH_PREFIX}drive.readonly`]: 'See and download all your Google Drive files',
  [`${AUTH_PREFIX}drive.file`]:
    'See, edit, create, and delete only the specific Google Drive files you use with this app',
  [`${AUTH_PREFIX}drive.metadata.readonly`]: 'See information about your Google Drive files',
  [`${AUTH_PREFIX}drive.metadata`]: 'View and manage metadata of files in your Google Drive',
}

export function normalizeScope(scope: string): string {
  if (scope === 'email') return USERINFO_EMAIL
  if (scope === 'profile') return USERINFO_PROFILE
  return scope
}

export function isValidScope(scope: string): boolean {
  return (
    ['openid', 'email', 'profile'].includes(scope) ||
    /^https:\/\/www\.googleapis\.com\/auth\/[\w.-]+$/.test(scope)
  )
}

export function isBasicScope(scope: string): boolean {
  return BASIC_SCOPES.has(normalizeScope(scope))
}

export function describeScope(scope: string): string {
  return DESCRIPTIONS[normalizeScope(scope)] ?? scope
}

/** An identity scope makes the token response carry an id_token. */
export function wantsIdToken(scopes: readonly string[]): boolean {
  return scopes.some((s) => BASIC_SCOPES.has(s))
}

export type DriveAccess = 'content' | 'metadata' | 'app-files' | 'none'

/**
 * `content`: list, read metadata, download and export everything; `metadata`: list and read
 * metadata only; `app-files` (drive.file): only files the app created or was given, which the
 * emulator does not track, so such a caller reads none (it may still create files: canWrite).
 */
export function driveAccess(scopes: readonly string[]): DriveAccess {
  const has = (name: string) => scopes.includes(`${AUTH_PREFIX}${name}`)
  if (has('drive') || has('drive.readonly')) return 'content'
  if (has('drive.metadata') || has('drive.metadata.readonly')) return 'metadata'
  if (has('drive.file')) return 'app-files'
  return 'none'
}

/** Creating files: the full `drive` scope, or `drive.file` (the files the app itself creates). */
export function canWrite(scopes: readonly string[]): boolean {
  return scopes.includes(`${AUTH_PREFIX}drive`) || scopes.includes(`${AUTH_PREFIX}drive.file`)
}
