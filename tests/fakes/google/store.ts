/**
 * The emulator's memory: registered OAuth clients, accounts, Drive files, consent requests,
 * authorization codes, grants and tokens, plus what tests steer (failures to inject, the clock,
 * latency) and observe (the request log, the last authorization request). The HTTP routes read and
 * write it; tests reach the same object as `emulator.state`.
 */
import { createHash, randomBytes } from 'node:crypto'
import { type DriveFileResource, FOLDER_MIME, toFileResource } from './drive-resource.ts'
import { checksums, type FileContent } from './file-content.ts'
import { FIXTURE_ACCOUNTS, type FixtureAccount } from './fixtures.ts'
import type { FailureReason } from './google-errors.ts'

export const DEFAULT_CLIENT_ID = 'docchat-test-client.apps.googleusercontent.com'
export const DEFAULT_CLIENT_SECRET = 'docchat-test-secret'
export const DRIVE_READONLY_SCOPE = 'https://www.googleapis.com/auth/drive.readonly'
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3599
export const AUTH_CODE_LIFETIME_SECONDS = 600
export const DEFAULT_MAX_PAGE_SIZE = 10

export type OAuthClientConfig = {
  clientId: string
  clientSecret: string
  /** Exact redirect URIs, as registered in a Cloud console. Unset: any http(s) URI on loopback. */
  redirectUris?: readonly string[]
  /** The app name the consent page shows. */
  name?: string
}

export type EmulatorAccount = FixtureAccount & {
  sub: string
  permissionId: string
  rootFolderId: string
  /** What ID tokens and userinfo say as `email_verified` (true unless a test says otherwise). */
  emailVerified: boolean
}

export const DRIVE_ENDPOINTS = [
  'files.list',
  'files.get',
  'files.media',
  'files.export',
  'about.get',
  'changes.getStartPageToken',
  'changes.list',
  'files.create',
  'files.update',
  'files.delete',
] as const
export type DriveEndpoint = (typeof DRIVE_ENDPOINTS)[number]

export type EmulatorEndpoint =
  | 'auth'
  | 'auth.decision'
  | 'token.authorization_code'
  | 'token.refresh_token'
  | 'token.invalid'
  | 'revoke'
  | 'tokeninfo'
  | 'userinfo'
  | 'certs'
  | 'openid-configuration'
  | DriveEndpoint
  | 'control'
  | 'unknown'

export type RecordedRequest = {
  endpoint: EmulatorEndpoint
  method: string
  path: string
  query: Record<string, string>
  status: number
  /** The account whose access token authorized the call, when there was one. */
  account?: string
  at: string
}

export type FailureOptions = {
  /** 429 rateLimitExceeded (default), 403 userRateLimitExceeded or 500 backendError. */
  reason?: FailureReason
  /** Only these Drive endpoints fail (default: every Drive endpoint). */
  endpoints?: readonly DriveEndpoint[]
}

export type NewDriveFile = {
  /** Owner's email; default the first account (ada@example.com). */
  owner?: string
  id?: string
  name: string
  mimeType: string
  /** Bytes of a binary file (a string is UTF-8). */
  content?: string | Uint8Array
  /** Stream this many bytes on download (`content` first, then filler) without holding them. */
  generatedSize?: number
  /** Docs Editors files: what files.export answers per MIME type (a string is UTF-8). */
  exports?: Record<string, string | Uint8Array>
  /** Parent folder ids; 'root' is the owner's My Drive (the default). */
  parents?: readonly string[]
  trashed?: boolean
  starred?: boolean
  description?: string
  createdTime?: string | Date
  modifiedTime?: string | Date
  version?: number
  /** Text `fullText contains` searches besides the name (default: the text content). */
  searchText?: string
  /** Links as a hostile or broken Drive might send them, instead of Google's own. */
  linkOverrides?: { webViewLink?: string; webContentLink?: string }
  /** The shared drive the file lives in (see `addSharedDrive`); its members see it, `owner` created it. */
  driveId?: string
  /** A shortcut (`application/vnd.google-apps.shortcut`): the id of the file it points to. */
  shortcutTargetId?: string
  /**
   * Other accounts the file is shared with: they read it by id (files.get, download, export) and
   * see its changes, but no listing shows it (the emulator has no "Shared with me").
   */
  sharedWith?: readonly string[]
}

/** A shared drive: its files belong to the drive, and every member sees them. */
export type SharedDrive = { id: string; name: string; members: string[] }

/**
 * One entry of the change log `changes.list` reads: which file changed, when, and who could see it
 * at that moment (a deleted file's change still reaches the people who had it).
 */
export type ChangeRecord = {
  id: number
  fileId: string
  time: number
  owner: string
  driveId?: string
  sharedWith?: readonly string[]
}

export type FileChanges = Partial<
  Pick<
    NewDriveFile,
    'name' | 'mimeType' | 'content' | 'generatedSize' | 'exports' | 'parents' | 'description' | 'searchText'
  >
>

export type StoredFile = {
  seq: number
  id: string
  owner: string
  name: string
  mimeType: string
  description?: string
  parents: string[]
  starred: boolean
  trashed: boolean
  /** Trashed itself (true), or along with a folder it sits in (false); unset: as `trashed`. */
  explicitlyTrashed?: boolean
  trashedTime?: number
  createdTime: number
  modifiedTime: number
  version: number
  content: FileContent
  checksums?: { md5: string; sha1: string; sha256: string }
  searchText: string
  linkOverrides?: { webViewLink?: string; webContentLink?: string }
  driveId?: string
  shortcutTargetId?: string
  sharedWith?: string[]
}

export type ConsentRequest = {
  id: string
  clientId: string
  redirectUri: string
  scopes: string[]
  state?: string
  codeChallenge?: string
  codeChallengeMethod?: 'S256' | 'plain'
  accessType: 'online' | 'offline'
  prompt: string[]
  loginHint?: string
  includeGrantedScopes: boolean
  nonce?: string
  createdAt: number
}

export type AuthCode = Omit<ConsentRequest, 'id' | 'createdAt' | 'loginHint' | 'state'> & {
  code: string
  email: string
  expiresAt: number
  used: boolean
}

export type Grant = {
  id: string
  clientId: string
  email: string
  scopes: string[]
  refreshToken?: string
  revoked: boolean
}

export type AccessToken = { token: string; grantId: string; expiresAt: number }

export type StoreOptions = {
  clients?: readonly OAuthClientConfig[]
  accounts?: readonly FixtureAccount[]
  maxPageSize?: number
  accessTokenLifetimeSeconds?: number
  authCodeLifetimeSeconds?: number
  /** The files the store starts with and `reset()` restores. */
  seedFiles?: readonly NewDriveFile[]
}

/** Random Google-looking strings: `[A-Za-z0-9_-]` only. */
export function randomToken(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 3)
    .toString('base64url')
    .slice(0, length)
}

export function newFileId(mimeType: string): string {
  const isEditorsFile = mimeType.startsWith('application/vnd.google-apps.') && !mimeType.endsWith('.folder')
  return `1${randomToken(isEditorsFile ? 43 : 32)}`
}

function toContent(input: FileChanges, mimeType: string): FileContent {
  if (mimeType === 'application/vnd.google-apps.folder') return { kind: 'none' }
  if (mimeType.startsWith('application/vnd.google-apps.'))
    return { kind: 'exports', exports: input.exports ?? {} }
  const bytes = Buffer.from(input.content ?? '')
  if (input.generatedSize !== undefined && input.generatedSize > bytes.length) {
    return { kind: 'generated', size: input.generatedSize, prefix: bytes }
  }
  return { kind: 'bytes', bytes }
}

function defaultSearchText(content: FileContent, mimeType: string): string {
  if (content.kind === 'exports')
    return Object.values(content.exports).find((e) => typeof e === 'string') ?? ''
  if (content.kind === 'bytes' && (mimeType.startsWith('text/') || mimeType === 'application/json')) {
    return content.bytes.toString('utf8')
  }
  return ''
}

function stableId(prefix: string, email: string, length: number): string {
  return `${prefix}${createHash('sha256').update(`${prefix}/${email}`).digest('base64url')}`.slice(0, length)
}

/** Google's numeric ids (account `sub`, permission ids) are 20-odd digit strings. */
function stableDigits(label: string, email: string, length: number): string {
  const hex = createHash('sha256').update(`${label}/${email}`).digest('hex')
  return `1${BigInt(`0x${hex}`).toString()}`.slice(0, length)
}

export type EmulatorStore = ReturnType<typeof createStore>

/** Given the real ID token, its claims and Google's signing function, the token to answer instead. */
export type IdTokenForger = (real: {
  idToken: string
  claims: Record<string, unknown>
  sign: (claims: Record<string, unknown>) => string
}) => string

export function createStore(options: StoreOptions = {}) {
  const clients: OAuthClientConfig[] = [
    ...(options.clients ?? [
      { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET, name: 'DocChat' },
    ]),
  ]
  const accounts: EmulatorAccount[] = (options.accounts ?? FIXTURE_ACCOUNTS).map((a) => ({
    ...a,
    sub: stableDigits('sub', a.email, 21),
    permissionId: stableDigits('permission', a.email, 20),
    // Google's root folder ids look like 0A…Uk9PVA ("ROOT" base64-encoded at the end).
    rootFolderId: `${stableId('0A', a.email, 13)}Uk9PVA`,
    emailVerified: true,
  }))
  let idTokenForger: IdTokenForger | undefined
  const settings = {
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? ACCESS_TOKEN_LIFETIME_SECONDS,
    authCodeLifetimeSeconds: options.authCodeLifetimeSeconds ?? AUTH_CODE_LIFETIME_SECONDS,
    latencyMs: 0,
  }

  const files = new Map<string, StoredFile>()
  const consentRequests = new Map<string, ConsentRequest>()
  const codes = new Map<string, AuthCode>()
  const grants = new Map<string, Grant>()
  const accessTokens = new Map<string, AccessToken>()
  const faults: { remaining: number; reason: FailureReason; endpoints?: readonly DriveEndpoint[] }[] = []
  const requests: RecordedRequest[] = []
  const authRequests: Record<string, string>[] = []
  const drives = new Map<string, SharedDrive>()
  const changeLog: ChangeRecord[] = []
  /** Change ids start here, so a page token is never a small number a client could guess as 0. */
  const FIRST_CHANGE_ID = 1000
  let nextChangeId = FIRST_CHANGE_ID
  /** Page tokens below this are no longer valid (see `expireChangeTokens`). */
  let oldestValidToken = FIRST_CHANGE_ID
  let clockOffsetMs = 0
  let seq = 0

  const now = () => Date.now() + clockOffsetMs
  const toTime = (value: string | Date | undefined, fallback: number) =>
    value === undefined ? fallback : new Date(value).getTime()

  function accountOf(email: string): EmulatorAccount {
    const account = accounts.find((a) => a.email === email)
    if (!account) throw new Error(`The Google emulator has no account ${email}`)
    return account
  }

  function requireFile(id: string): StoredFile {
    const file = files.get(id)
    if (!file) throw new Error(`The Google emulator has no file ${id}`)
    return file
  }

  function resource(file: StoredFile): DriveFileResource {
    const target = file.shortcutTargetId === undefined ? undefined : files.get(file.shortcutTargetId)
    return toFileResource(file, accountOf(file.owner), target?.mimeType)
  }

  function recordChange(file: StoredFile): void {
    changeLog.push({
      id: nextChangeId++,
      fileId: file.id,
      time: now(),
      owner: file.owner,
      ...(file.driveId === undefined ? {} : { driveId: file.driveId }),
      ...(file.sharedWith === undefined ? {} : { sharedWith: [...file.sharedWith] }),
    })
  }

  /**
   * Whether `email` sees the file: its owner does, in My Drive; in a shared drive, every member
   * does, and only through a call that asks for shared drives (`allDrives`); and whoever it is
   * shared with.
   */
  function canSee(
    place: { owner: string; driveId?: string; sharedWith?: readonly string[] },
    email: string,
    allDrives: boolean,
  ): boolean {
    const sharedWithThem = place.sharedWith?.includes(email) ?? false
    if (place.driveId === undefined) return place.owner === email || sharedWithThem
    return allDrives && (isMember(place.driveId, email) || sharedWithThem)
  }

  function isMember(driveId: string, email: string): boolean {
    return drives.get(driveId)?.members.includes(email) ?? false
  }

  /** Strictly later than `previous`, so "modifiedTime > last sync" always sees a change. */
  function laterThan(previous: number): number {
    return Math.max(now(), previous + 1)
  }

  function addFile(input: NewDriveFile): DriveFileResource {
    const owner = accountOf(input.owner ?? accounts[0]?.email ?? '')
    const id = input.id ?? newFileId(input.mimeType)
    if (files.has(id)) throw new Error(`The Google emulator already has a file ${id}`)
    const content = toContent(input, input.mimeType)
    const modifiedTime = toTime(input.modifiedTime, now())
    const file: StoredFile = {
      seq: seq++,
      id,
      owner: owner.email,
      name: input.name,
      mimeType: input.mimeType,
      ...(input.description === undefined ? {} : { description: input.description }),
      parents: (input.parents ?? ['root']).map((p) => (p === 'root' ? owner.rootFolderId : p)),
      starred: input.starred ?? false,
      trashed: input.trashed ?? false,
      ...(input.trashed ? { trashedTime: modifiedTime, explicitlyTrashed: true } : {}),
      createdTime: toTime(input.createdTime, modifiedTime),
      modifiedTime,
      version: input.version ?? 1,
      content,
      checksums: checksums(content),
      searchText: input.searchText ?? defaultSearchText(content, input.mimeType),
      ...(input.linkOverrides ? { linkOverrides: input.linkOverrides } : {}),
      ...(input.driveId === undefined ? {} : { driveId: input.driveId }),
      ...(input.shortcutTargetId === undefined ? {} : { shortcutTargetId: input.shortcutTargetId }),
      ...(input.sharedWith === undefined ? {} : { sharedWith: [...input.sharedWith] }),
    }
    if (input.driveId !== undefined && !drives.has(input.driveId)) {
      throw new Error(`The Google emulator has no shared drive ${input.driveId}`)
    }
    files.set(id, file)
    recordChange(file)
    return resource(file)
  }

  /** Any change bumps `version` and moves `modifiedTime` forward, as an edit in Drive does. */
  function updateFile(id: string, changes: FileChanges = {}): DriveFileResource {
    const file = requireFile(id)
    if (changes.name !== undefined) file.name = changes.name
    if (changes.description !== undefined) file.description = changes.description
    if (changes.mimeType !== undefined) file.mimeType = changes.mimeType
    if (changes.parents !== undefined) {
      const root = accountOf(file.owner).rootFolderId
      file.parents = changes.parents.map((p) => (p === 'root' ? root : p))
    }
    const touchesContent =
      changes.content !== undefined ||
      changes.exports !== undefined ||
      changes.generatedSize !== undefined ||
      changes.mimeType !== undefined
    if (touchesContent) {
      const previous = file.content
      const merged: FileChanges = {
        content: changes.content ?? (previous.kind === 'bytes' ? previous.bytes : undefined),
        exports: changes.exports ?? (previous.kind === 'exports' ? previous.exports : undefined),
        generatedSize: changes.generatedSize,
      }
      file.content = toContent(merged, file.mimeType)
      file.checksums = checksums(file.content)
      file.searchText = changes.searchText ?? defaultSearchText(file.content, file.mimeType)
    } else if (changes.searchText !== undefined) {
      file.searchText = changes.searchText
    }
    file.version += 1
    file.modifiedTime = laterThan(file.modifiedTime)
    recordChange(file)
    return resource(file)
  }

  /**
   * What sits below a folder, at any depth, and goes with it when it is trashed or deleted: the
   * items its owner owns (in a shared drive, the drive's items), as Drive documents. `descend`
   * says which items' own children are walked too.
   */
  function descendantsOf(folder: StoredFile, descend: (file: StoredFile) => boolean): StoredFile[] {
    const found: StoredFile[] = []
    const queue = [folder.id]
    const seen = new Set(queue)
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (const file of files.values()) {
        if (seen.has(file.id) || !file.parents.includes(id)) continue
        const belongs =
          folder.driveId === undefined ? file.owner === folder.owner : file.driveId === folder.driveId
        if (!belongs) continue
        seen.add(file.id)
        found.push(file)
        if (file.mimeType === FOLDER_MIME && descend(file)) queue.push(file.id)
      }
    }
    return found
  }

  function setTrashed(file: StoredFile, trashed: boolean, explicitly: boolean): void {
    file.trashed = trashed
    file.explicitlyTrashed = trashed && explicitly
    if (trashed) file.trashedTime = now()
    else delete file.trashedTime
    file.version += 1
    recordChange(file)
  }

  /**
   * Trashing bumps `version` but not `modifiedTime` (Drive treats it as a metadata change). A
   * folder takes what sits below it along (each a change of its own, `explicitlyTrashed: false`);
   * restoring it brings back what went with it, not what was trashed on its own.
   */
  function trashFile(id: string, trashed = true): DriveFileResource {
    const file = requireFile(id)
    setTrashed(file, trashed, true)
    if (file.mimeType === FOLDER_MIME) {
      const along = (f: StoredFile) => f.trashed && f.explicitlyTrashed === false
      for (const below of descendantsOf(file, (f) => (trashed ? true : !f.trashed || along(f)))) {
        if (trashed && !below.trashed) setTrashed(below, true, false)
        else if (!trashed && along(below)) setTrashed(below, false, false)
      }
    }
    return resource(file)
  }

  /** Deleted for good; a folder takes what sits below it along (each a change of its own). */
  function removeFile(id: string): void {
    const file = requireFile(id)
    const below = file.mimeType === FOLDER_MIME ? descendantsOf(file, () => true) : []
    for (const gone of [file, ...below]) {
      files.delete(gone.id)
      recordChange(gone)
    }
    // Another account's file in the folder stays, without this parent (Drive puts it nowhere).
    for (const other of files.values()) other.parents = other.parents.filter((p) => p !== id)
  }

  /**
   * files.update's addParents/removeParents: the file moves (a metadata change: `version` grows,
   * `modifiedTime` stays, as a move in Drive leaves it).
   */
  function moveFile(
    id: string,
    move: { addParents?: readonly string[]; removeParents?: readonly string[] },
  ): DriveFileResource {
    const file = requireFile(id)
    const root = accountOf(file.owner).rootFolderId
    const mapRoot = (p: string) => (p === 'root' ? root : p)
    const removed = new Set((move.removeParents ?? []).map(mapRoot))
    const kept = file.parents.filter((p) => !removed.has(p))
    file.parents = [...new Set([...kept, ...(move.addParents ?? []).map(mapRoot)])]
    file.version += 1
    recordChange(file)
    return resource(file)
  }

  function takeFault(endpoint: DriveEndpoint): FailureReason | undefined {
    const fault = faults.find((f) => f.remaining > 0 && (!f.endpoints || f.endpoints.includes(endpoint)))
    if (!fault) return undefined
    fault.remaining -= 1
    if (fault.remaining === 0) faults.splice(faults.indexOf(fault), 1)
    return fault.reason
  }

  function grantOfToken(token: string): { grant: Grant; accessToken: AccessToken } | undefined {
    const accessToken = accessTokens.get(token)
    if (!accessToken || accessToken.expiresAt <= now()) return undefined
    const grant = grants.get(accessToken.grantId)
    if (!grant || grant.revoked) return undefined
    return { grant, accessToken }
  }

  function issueAccessToken(grant: Grant): AccessToken {
    const token: AccessToken = {
      token: `ya29.a0${randomToken(150)}`,
      grantId: grant.id,
      expiresAt: now() + settings.accessTokenLifetimeSeconds * 1000,
    }
    accessTokens.set(token.token, token)
    return token
  }

  function revokeGrant(grant: Grant): void {
    grant.revoked = true
    for (const [token, record] of accessTokens) if (record.grantId === grant.id) accessTokens.delete(token)
  }

  function clearSessions(): void {
    consentRequests.clear()
    codes.clear()
    grants.clear()
    accessTokens.clear()
  }

  function addSharedDrive(drive: { id?: string; name: string; members: readonly string[] }): SharedDrive {
    for (const member of drive.members) accountOf(member)
    const id = drive.id ?? `0A${randomToken(17)}Uk9PVA`
    const created: SharedDrive = { id, name: drive.name, members: [...drive.members] }
    drives.set(id, created)
    return created
  }

  for (const file of options.seedFiles ?? []) addFile(file)

  return {
    clients,
    accounts,
    settings,
    /** Internal tables the routes work on. */
    data: {
      files,
      consentRequests,
      codes,
      grants,
      accessTokens,
      faults,
      requests,
      authRequests,
      drives,
      changeLog,
    },
    now,
    canSee,
    isMember,
    /** The page token of "now": changes from here on are listed from it. */
    startPageToken: () => String(nextChangeId),
    /** A token that was handed out and is still honoured (tokens are the change ids). */
    isValidChangeToken: (token: number) => token >= oldestValidToken && token <= nextChangeId,
    accountOf,
    findAccount: (email: string) => accounts.find((a) => a.email === email),
    findClient: (clientId: string) => clients.find((c) => c.clientId === clientId),
    takeFault,
    grantOfToken,
    issueAccessToken,
    revokeGrant,
    resource,

    // ---- control surface for tests ----

    addFile,
    updateFile,
    trashFile,
    removeFile,
    moveFile,
    addSharedDrive,
    /**
     * Every change page token handed out so far stops working (Drive may expire old tokens): the
     * next changes.list with one answers 400 Invalid Value on pageToken, and a client starts over.
     */
    expireChangeTokens(): void {
      // Skip one id, so the token of "now" handed out before differs from every one handed out after.
      nextChangeId += 1
      oldestValidToken = nextChangeId
    },
    getFile: (id: string): DriveFileResource | undefined => {
      const file = files.get(id)
      return file && resource(file)
    },
    /** Every file of an account (all accounts when omitted), trashed ones and folders included. */
    listFiles: (owner?: string): DriveFileResource[] =>
      [...files.values()].filter((f) => owner === undefined || f.owner === owner).map(resource),

    /** The next `count` Drive requests (optionally only some endpoints) answer a Google error. */
    failNextDriveRequests(count: number, failure: FailureOptions = {}): void {
      faults.push({
        remaining: count,
        reason: failure.reason ?? 'rateLimitExceeded',
        ...(failure.endpoints ? { endpoints: failure.endpoints } : {}),
      })
    },
    clearFailures: () => {
      faults.length = 0
    },
    pendingFailures: () => faults.reduce((sum, f) => sum + f.remaining, 0),

    /**
     * The next token response's ID token goes through `forge` first: what an attacker between
     * Google and DocChat would hand over (tests of the ID token checks). One use.
     */
    forgeNextIdToken(forge: IdTokenForger): void {
      idTokenForger = forge
    },
    takeIdTokenForger(): IdTokenForger | undefined {
      const forge = idTokenForger
      idTokenForger = undefined
      return forge
    },

    /** An account whose address Google has not verified: ID tokens say `email_verified: false`. */
    setEmailVerified(email: string, verified: boolean): void {
      const account = accounts.find((a) => a.email === email)
      if (!account) throw new Error(`No emulator account ${email}`)
      account.emailVerified = verified
    },

    /** What a user removing the app in their Google Account does: refresh → invalid_grant, calls → 401. */
    revokeGrants(email: string, clientId?: string): number {
      let count = 0
      for (const grant of grants.values()) {
        if (
          grant.email === email &&
          !grant.revoked &&
          (clientId === undefined || grant.clientId === clientId)
        ) {
          revokeGrant(grant)
          count += 1
        }
      }
      return count
    },
    activeGrants: (email?: string): Grant[] =>
      [...grants.values()].filter((g) => !g.revoked && (email === undefined || g.email === email)),

    /** Every access token (of one account, or all) stops working now; refresh tokens still work. */
    expireAccessTokens(email?: string): number {
      let count = 0
      for (const record of accessTokens.values()) {
        const grant = grants.get(record.grantId)
        if (email === undefined || grant?.email === email) {
          record.expiresAt = Math.min(record.expiresAt, now() - 1)
          count += 1
        }
      }
      return count
    },

    requests,
    requestCount: (endpoint?: EmulatorEndpoint): number =>
      endpoint === undefined ? requests.length : requests.filter((r) => r.endpoint === endpoint).length,
    requestCounts(): Partial<Record<EmulatorEndpoint, number>> {
      const counts: Partial<Record<EmulatorEndpoint, number>> = {}
      for (const r of requests) counts[r.endpoint] = (counts[r.endpoint] ?? 0) + 1
      return counts
    },
    clearRequests: () => {
      requests.length = 0
    },

    /** Every query parameter of the latest GET /o/oauth2/v2/auth, valid or not. */
    get lastAuthRequest(): Record<string, string> | undefined {
      return authRequests.at(-1)
    },
    authRequests,

    /** Moves the emulator's clock (codes and tokens expire by it); the real clock is untouched. */
    advanceTime(ms: number): void {
      clockOffsetMs += ms
    },
    setLatency(ms: number): void {
      settings.latencyMs = ms
    },
    setMaxPageSize(size: number): void {
      settings.maxPageSize = size
    },

    /** Back to the seed files and options: no grants, tokens, failures, log, latency or clock offset. */
    reset(): void {
      for (const account of accounts) account.emailVerified = true
      idTokenForger = undefined
      files.clear()
      clearSessions()
      faults.length = 0
      requests.length = 0
      authRequests.length = 0
      clockOffsetMs = 0
      settings.latencyMs = 0
      settings.maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE
      seq = 0
      drives.clear()
      changeLog.length = 0
      nextChangeId = FIRST_CHANGE_ID
      oldestValidToken = FIRST_CHANGE_ID
      for (const file of options.seedFiles ?? []) addFile(file)
    },
  }
}
