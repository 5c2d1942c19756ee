/**
 * The Google emulator, driven by the real clients the server uses (google-auth-library's
 * OAuth2Client and @googleapis/drive) with only their origins pointed at it: if these pass, the
 * server's Google code meets the same answers, errors included, that it meets at Google.
 */
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { drive, type drive_v3 } from '@googleapis/drive'
import { CodeChallengeMethod, gaxios, OAuth2Client, type OAuth2ClientOptions } from 'google-auth-library'
import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import {
  ADA,
  BOB,
  FIXTURE_FILES,
  LARGE_FILE_BYTES,
  listableFixtureFilesOf,
  MIME,
  ZEPHYR_LAUNCH_FACT,
} from '#tests/fakes/google/fixtures.ts'

const REDIRECT_URI = 'http://127.0.0.1:3000/api/v1/google-drive/auth/google/callback'
const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly'
/** The listing an ingester asks for: no folders, nothing in the trash. */
const LISTING_Q = `trashed = false and mimeType != '${MIME.folder}'`
const LISTING_FIELDS = 'nextPageToken, files(id, name, mimeType, modifiedTime, webViewLink, webContentLink)'

let emulator: GoogleEmulator

beforeAll(async () => {
  emulator = await createGoogleEmulator()
})
afterAll(() => emulator.close())
beforeEach(() => emulator.state.reset())

function oauthClient(options: OAuth2ClientOptions = {}): OAuth2Client {
  return new OAuth2Client({
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    redirectUri: REDIRECT_URI,
    endpoints: emulator.oauthEndpoints,
    ...options,
  })
}

async function authorizationUrl(client: OAuth2Client, options: { prompt?: string; scope?: string[] } = {}) {
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
  const url = client.generateAuthUrl({
    access_type: 'offline',
    scope: options.scope ?? [DRIVE_READONLY],
    state: 'state-123',
    code_challenge: codeChallenge,
    code_challenge_method: CodeChallengeMethod.S256,
    ...(options.prompt === undefined
      ? { prompt: 'consent' }
      : options.prompt
        ? { prompt: options.prompt }
        : {}),
  })
  return { url, codeVerifier }
}

/** The whole connect flow: consent as `account`, exchange the code, keep the tokens on the client. */
async function connect(account = ADA, options: { prompt?: string; scope?: string[] } = {}) {
  const client = oauthClient()
  const { url, codeVerifier } = await authorizationUrl(client, options)
  const redirect = await completeConsent(url, { account })
  const { tokens } = await client.getToken({ code: redirect.searchParams.get('code') ?? '', codeVerifier })
  client.setCredentials(tokens)
  return { client, tokens, drive: drive({ version: 'v3', auth: client, rootUrl: emulator.driveRootUrl }) }
}

async function failureOf(promise: Promise<unknown>): Promise<gaxios.GaxiosError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(gaxios.GaxiosError)
    return error as gaxios.GaxiosError
  }
  throw new Error('expected the call to fail')
}

/** Drive's error reason, e.g. 'notFound', from the `{error:{errors:[{reason}]}}` body. */
function driveReason(error: gaxios.GaxiosError): string | undefined {
  const data = error.response?.data as { error?: { errors?: { reason?: string }[] } } | undefined
  return data?.error?.errors?.[0]?.reason
}

async function listAll(api: drive_v3.Drive, params: drive_v3.Params$Resource$Files$List = {}) {
  const files: drive_v3.Schema$File[] = []
  let pageToken: string | undefined
  let pages = 0
  do {
    const { data } = await api.files.list({
      q: LISTING_Q,
      fields: LISTING_FIELDS,
      pageSize: 100,
      orderBy: 'modifiedTime desc',
      ...params,
      ...(pageToken ? { pageToken } : {}),
    })
    files.push(...(data.files ?? []))
    pageToken = data.nextPageToken ?? undefined
    pages += 1
  } while (pageToken)
  return { files, pages }
}

test('Allow on the consent page redirects to the app with a code, the state and the granted scope', async () => {
  const { url } = await authorizationUrl(oauthClient())

  const page = await (await fetch(url)).text()
  const redirect = await completeConsent(url, { account: ADA })

  expect(page).toContain('ada@example.com')
  expect(page).toContain('bob@example.com')
  expect(page).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/)
  expect(page).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/)
  expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI)
  expect(redirect.searchParams.get('code')).toMatch(/^4\/0A[\w-]+$/)
  expect(redirect.searchParams.get('state')).toBe('state-123')
  expect(redirect.searchParams.get('scope')).toBe(DRIVE_READONLY)
  expect(emulator.state.lastAuthRequest).toMatchObject({
    client_id: emulator.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: DRIVE_READONLY,
    access_type: 'offline',
    prompt: 'consent',
    state: 'state-123',
    code_challenge_method: 'S256',
  })
})

test('Cancel on the consent page redirects with error=access_denied and the state', async () => {
  const { url } = await authorizationUrl(oauthClient())

  const redirect = await completeConsent(url, { decision: 'cancel' })

  expect(redirect.searchParams.get('error')).toBe('access_denied')
  expect(redirect.searchParams.get('state')).toBe('state-123')
  expect(redirect.searchParams.has('code')).toBe(false)
})

test('the authorization page refuses an unknown client, an unregistered redirect URI and a missing scope', async () => {
  const good = new URL((await authorizationUrl(oauthClient())).url)
  const variant = async (change: (params: URLSearchParams) => void) => {
    const url = new URL(good)
    change(url.searchParams)
    const response = await fetch(url, { redirect: 'manual' })
    return { status: response.status, text: await response.text() }
  }

  const unknownClient = await variant((p) => p.set('client_id', 'someone-else.apps.googleusercontent.com'))
  const foreignRedirect = await variant((p) => p.set('redirect_uri', 'https://evil.example/callback'))
  const noScope = await variant((p) => p.delete('scope'))
  const bareScope = await variant((p) => p.set('scope', 'drive.readonly'))

  expect(unknownClient.status).toBe(401)
  expect(unknownClient.text).toContain('invalid_client')
  expect(foreignRedirect.status).toBe(400)
  expect(foreignRedirect.text).toContain('redirect_uri_mismatch')
  expect(noScope.status).toBe(400)
  expect(noScope.text).toContain('Missing required parameter: scope')
  expect(bareScope.text).toContain('invalid_scope')
})

test('a code exchanged with its PKCE verifier gives a Bearer access token for 3599 s and a refresh token', async () => {
  const before = Date.now()

  const { tokens } = await connect()

  expect(tokens.access_token).toMatch(/^ya29\./)
  expect(tokens.refresh_token).toMatch(/^1\/\//)
  expect(tokens.token_type).toBe('Bearer')
  expect(tokens.scope).toBe(DRIVE_READONLY)
  expect(tokens.expiry_date).toBeGreaterThanOrEqual(before + 3599_000)
  expect(tokens.expiry_date).toBeLessThanOrEqual(Date.now() + 3599_000)
  expect(emulator.state.requestCount('token.authorization_code')).toBe(1)
})

test('a wrong PKCE verifier is refused with 400 invalid_grant', async () => {
  const client = oauthClient()
  const { url } = await authorizationUrl(client)
  const code = (await completeConsent(url)).searchParams.get('code') ?? ''
  const { codeVerifier: otherVerifier } = await client.generateCodeVerifierAsync()

  const error = await failureOf(client.getToken({ code, codeVerifier: otherVerifier }))

  expect(error.status).toBe(400)
  expect(error.response?.data).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' })
})

test('a code can be exchanged only once', async () => {
  const client = oauthClient()
  const { url, codeVerifier } = await authorizationUrl(client)
  const code = (await completeConsent(url)).searchParams.get('code') ?? ''
  await client.getToken({ code, codeVerifier })

  const error = await failureOf(client.getToken({ code, codeVerifier }))

  expect(error.status).toBe(400)
  expect(error.response?.data).toMatchObject({ error: 'invalid_grant' })
})

test('a code left unused for more than ten minutes has expired', async () => {
  const client = oauthClient()
  const { url, codeVerifier } = await authorizationUrl(client)
  const code = (await completeConsent(url)).searchParams.get('code') ?? ''
  emulator.state.advanceTime(10 * 60_000 + 1)

  const error = await failureOf(client.getToken({ code, codeVerifier }))

  expect(error.response?.data).toMatchObject({ error: 'invalid_grant' })
})

test('a user who unticks the Drive scope gets a token that Drive refuses with 403 insufficientPermissions', async () => {
  const client = oauthClient()
  const { url, codeVerifier } = await authorizationUrl(client, { scope: ['openid', 'email', DRIVE_READONLY] })
  const redirect = await completeConsent(url, { grantScopes: [] })
  const { tokens } = await client.getToken({ code: redirect.searchParams.get('code') ?? '', codeVerifier })
  client.setCredentials(tokens)
  const api = drive({ version: 'v3', auth: client, rootUrl: emulator.driveRootUrl })

  const error = await failureOf(api.files.list({ q: LISTING_Q }, { retry: false }))

  expect(tokens.scope).not.toContain(DRIVE_READONLY)
  expect([error.status, driveReason(error)]).toEqual([403, 'insufficientPermissions'])
})

test('about.get tells which Google account the tokens belong to', async () => {
  const { drive: api } = await connect(BOB)

  const { data } = await api.about.get({ fields: 'user(emailAddress, displayName)' })

  expect(data).toEqual({ user: { emailAddress: BOB, displayName: 'Bob Builder' } })
})

test('a wrong client secret is refused with 401 invalid_client', async () => {
  const client = oauthClient({ clientSecret: 'not-the-secret' })
  const { url, codeVerifier } = await authorizationUrl(client)
  const code = (await completeConsent(url)).searchParams.get('code') ?? ''

  const error = await failureOf(client.getToken({ code, codeVerifier }))

  expect(error.status).toBe(401)
  expect(error.response?.data).toMatchObject({ error: 'invalid_client' })
})

test('a refresh token comes only with the first consent, or again when prompt=consent asks', async () => {
  const first = await connect(ADA, { prompt: '' })
  const second = await connect(ADA, { prompt: '' })
  const forced = await connect(ADA, { prompt: 'consent' })

  expect(first.tokens.refresh_token).toBeDefined()
  expect(second.tokens.refresh_token).toBeUndefined()
  expect(forced.tokens.refresh_token).toBeDefined()
})

test('the Drive client pages through every listable file, newest first, with only the asked-for fields', async () => {
  const { drive: api } = await connect()

  const { files, pages } = await listAll(api)

  const expected = listableFixtureFilesOf(ADA)
  expect(pages).toBeGreaterThanOrEqual(3)
  expect(emulator.state.requestCount('files.list')).toBe(pages)
  expect(files.map((f) => f.id).sort()).toEqual(expected.map((f) => f.id).sort())
  const times = files.map((f) => Date.parse(f.modifiedTime ?? ''))
  expect(times).toEqual([...times].sort((a, b) => b - a))
  const allowed = ['id', 'name', 'mimeType', 'modifiedTime', 'webViewLink', 'webContentLink']
  for (const file of files) expect(allowed).toEqual(expect.arrayContaining(Object.keys(file)))
  const pdf = files.find((f) => f.id === FIXTURE_FILES.zephyrBrief.id)
  expect(pdf?.webViewLink).toBe(`https://drive.google.com/file/d/${pdf?.id}/view?usp=drivesdk`)
  expect(pdf?.webContentLink).toBe(`https://drive.google.com/uc?id=${pdf?.id}&export=download`)
  const doc = files.find((f) => f.id === FIXTURE_FILES.handbook.id)
  expect(doc?.webViewLink).toBe(`https://docs.google.com/document/d/${doc?.id}/edit?usp=drivesdk`)
  expect(doc?.webContentLink).toBeUndefined()
  expect(files.some((f) => f.id === FIXTURE_FILES.trashedDraft.id)).toBe(false)
  expect(files.some((f) => f.id === FIXTURE_FILES.projectsFolder.id)).toBe(false)
})

test('a listing without fields answers Drive defaults; without trashed = false it includes the trash', async () => {
  const { drive: api } = await connect()

  const { data } = await api.files.list({ pageSize: 5 })
  const everything = await listAll(api, { q: '', fields: 'nextPageToken, files(id)' })
  const byName = await api.files.list({ q: "name = 'notes.txt'", fields: 'files(id)' })
  const inRoot = await listAll(api, {
    q: "'root' in parents and trashed = false",
    fields: 'nextPageToken, files(id)',
  })

  expect(Object.keys(data).sort()).toEqual(['files', 'incompleteSearch', 'kind', 'nextPageToken'])
  expect(Object.keys(data.files?.[0] ?? {}).sort()).toEqual(['id', 'kind', 'mimeType', 'name'])
  expect(data.files).toHaveLength(5)
  expect(everything.files.map((f) => f.id)).toContain(FIXTURE_FILES.trashedDraft.id)
  expect(byName.data.files).toEqual([{ id: FIXTURE_FILES.notes.id }])
  expect(inRoot.files.map((f) => f.id)).not.toContain(FIXTURE_FILES.meetingMinutes.id)
  expect(inRoot.files.map((f) => f.id)).toContain(FIXTURE_FILES.projectsFolder.id)
})

test('an unsupported query, an unknown field and a foreign page token are 400s as at Google', async () => {
  const { drive: api } = await connect()
  const { data } = await api.files.list({ q: LISTING_Q, fields: 'nextPageToken' })

  const badQuery = await failureOf(api.files.list({ q: "properties has { key='x' and value='y' }" }))
  const badField = await failureOf(api.files.list({ fields: 'files(id,colour)' }))
  const foreignToken = await failureOf(
    api.files.list({ q: "name = 'x'", pageToken: data.nextPageToken ?? '' }),
  )

  expect([badQuery.status, driveReason(badQuery), badQuery.message]).toEqual([
    400,
    'invalid',
    'Invalid Value',
  ])
  expect([badField.status, badField.message]).toEqual([400, 'Invalid field selection colour'])
  expect([foreignToken.status, driveReason(foreignToken)]).toEqual([400, 'invalid'])
})

test('files.get returns the asked-for metadata and alt=media the PDF bytes', async () => {
  const { drive: api } = await connect()
  const id = FIXTURE_FILES.zephyrBrief.id

  const { data: meta } = await api.files.get({
    fileId: id,
    fields: 'id,name,mimeType,size,md5Checksum,version,modifiedTime,trashed,parents,owners(emailAddress)',
  })
  const { data: bytes, headers } = await api.files.get(
    { fileId: id, alt: 'media' },
    { responseType: 'arraybuffer' },
  )

  const body = Buffer.from(bytes as unknown as ArrayBuffer)
  expect(meta).toMatchObject({
    id,
    name: 'zephyr-project-brief.pdf',
    mimeType: MIME.pdf,
    version: '1',
    trashed: false,
    owners: [{ emailAddress: ADA }],
  })
  expect(id).toMatch(/^[\w-]{28,44}$/)
  expect(body.subarray(0, 5).toString()).toBe('%PDF-')
  expect(String(body.length)).toBe(meta.size)
  expect(createHash('md5').update(body).digest('hex')).toBe(meta.md5Checksum)
  // googleapis types these headers as Node's record; at run time they are fetch Headers.
  expect(new Headers(headers as unknown as HeadersInit).get('content-type')).toBe(MIME.pdf)
  expect(emulator.state.requestCount('files.media')).toBe(1)
})

test('a Google Doc exports as markdown with headings, and as plain text with a BOM and CRLFs', async () => {
  const { drive: api } = await connect()
  const fileId = FIXTURE_FILES.handbook.id

  const markdown = await api.files.export({ fileId, mimeType: 'text/markdown' }, { responseType: 'text' })
  const plain = await api.files.export({ fileId, mimeType: 'text/plain' }, { responseType: 'arraybuffer' })

  expect(markdown.data).toMatch(/^# Onboarding Handbook\n/)
  expect(markdown.data).toContain('## Your first day')
  expect(markdown.data).toContain(FIXTURE_FILES.handbook.facts[0]?.text)
  // fetch's text decoding drops the BOM; the bytes keep it.
  const bytes = Buffer.from(plain.data as unknown as ArrayBuffer)
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
  expect(bytes.subarray(3).toString()).toMatch(/^Onboarding Handbook\r\n/)
})

test('Docs cannot be downloaded, binaries cannot be exported, other export types are refused', async () => {
  const { drive: api } = await connect()

  const download = await failureOf(api.files.get({ fileId: FIXTURE_FILES.handbook.id, alt: 'media' }))
  const exportPdf = await failureOf(
    api.files.export({ fileId: FIXTURE_FILES.zephyrBrief.id, mimeType: 'text/plain' }),
  )
  const exportHtml = await failureOf(
    api.files.export({ fileId: FIXTURE_FILES.handbook.id, mimeType: 'text/html' }),
  )

  expect([download.status, driveReason(download)]).toEqual([403, 'fileNotDownloadable'])
  expect([exportPdf.status, driveReason(exportPdf)]).toEqual([403, 'fileNotExportable'])
  expect([exportHtml.status, driveReason(exportHtml)]).toEqual([400, 'badRequest'])
})

test("an unknown id and another account's file are both 404 notFound", async () => {
  const { drive: api } = await connect(ADA)

  const unknown = await failureOf(api.files.get({ fileId: '1ThisIdDoesNotExistAnywhere000000' }))
  const bobs = await failureOf(api.files.get({ fileId: FIXTURE_FILES.bobNotes.id }))

  expect([unknown.status, driveReason(unknown)]).toEqual([404, 'notFound'])
  expect([bobs.status, driveReason(bobs)]).toEqual([404, 'notFound'])
})

test("Bob's Drive lists only his one text file, whose fact can be downloaded", async () => {
  const { drive: api } = await connect(BOB)

  const { files } = await listAll(api)
  const { data } = await api.files.get(
    { fileId: FIXTURE_FILES.bobNotes.id, alt: 'media' },
    { responseType: 'text' },
  )

  expect(files.map((f) => f.name)).toEqual(['bob-notes.txt'])
  expect(data).toContain(FIXTURE_FILES.bobNotes.facts[0]?.text)
})

test('the file over 10 MB says so in its metadata and streams all its bytes', async () => {
  const { drive: api } = await connect()
  const fileId = FIXTURE_FILES.largePdf.id

  const { data: meta } = await api.files.get({ fileId, fields: 'size' })
  const { data: stream } = await api.files.get({ fileId, alt: 'media' }, { responseType: 'stream' })
  let received = 0
  for await (const chunk of stream as unknown as Readable) received += (chunk as Buffer).length

  expect(Number(meta.size)).toBe(LARGE_FILE_BYTES)
  expect(received).toBe(LARGE_FILE_BYTES)
})

test('injected 429s surface as rateLimitExceeded errors, and the client retries them by default', async () => {
  const { drive: api } = await connect()
  emulator.state.failNextDriveRequests(1)

  const refused = await failureOf(api.files.list({ q: LISTING_Q }, { retry: false }))
  emulator.state.clearRequests()
  emulator.state.failNextDriveRequests(2)
  const recovered = await api.files.list(
    { q: LISTING_Q },
    { retryConfig: { retryDelay: 1, retryDelayMultiplier: 1 } },
  )

  expect(refused.status).toBe(429)
  expect(refused.code).toBe(429)
  expect(refused.response?.data).toEqual({
    error: {
      code: 429,
      message: 'Rate Limit Exceeded',
      errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }],
    },
  })
  expect(recovered.status).toBe(200)
  expect(emulator.state.requestCount('files.list')).toBe(3)
})

test('an injected 403 userRateLimitExceeded hits only the endpoint it was aimed at', async () => {
  const { drive: api } = await connect()
  emulator.state.failNextDriveRequests(1, { reason: 'userRateLimitExceeded', endpoints: ['files.media'] })

  await api.files.list({ q: LISTING_Q })
  const refused = await failureOf(
    api.files.get({ fileId: FIXTURE_FILES.notes.id, alt: 'media' }, { retry: false }),
  )

  expect([refused.status, driveReason(refused)]).toEqual([403, 'userRateLimitExceeded'])
  expect(emulator.state.pendingFailures()).toBe(0)
})

test('after the emulator expires access tokens the client refreshes by itself and the call succeeds', async () => {
  const { client, tokens } = await connect()
  // As a server that stored both tokens but not the expiry: the 401 makes the client refresh.
  client.setCredentials({ access_token: tokens.access_token, refresh_token: tokens.refresh_token })
  const api = drive({ version: 'v3', auth: client, rootUrl: emulator.driveRootUrl })
  emulator.state.expireAccessTokens()

  const { data } = await api.files.list({ q: LISTING_Q, fields: 'files(id)' })

  expect(data.files?.length).toBeGreaterThan(0)
  expect(emulator.state.requestCount('token.refresh_token')).toBe(1)
  expect(emulator.state.requests.filter((r) => r.endpoint === 'files.list').map((r) => r.status)).toEqual([
    401, 200,
  ])
  expect(client.credentials.access_token).not.toBe(tokens.access_token)
})

test('a locally expired access token is refreshed before the call, with no 401 on the way', async () => {
  const { client, drive: api } = await connect()
  client.setCredentials({ ...client.credentials, expiry_date: Date.now() - 1000 })

  await api.files.list({ q: LISTING_Q, fields: 'files(id)' })

  expect(emulator.state.requestCount('token.refresh_token')).toBe(1)
  expect(emulator.state.requests.filter((r) => r.endpoint === 'files.list').map((r) => r.status)).toEqual([
    200,
  ])
})

test('once the account revokes the grant, refreshing fails with invalid_grant', async () => {
  const { client, drive: api } = await connect()
  emulator.state.revokeGrants(ADA)
  client.setCredentials({ ...client.credentials, expiry_date: Date.now() - 1000 })

  const error = await failureOf(api.files.list({ q: LISTING_Q }))

  expect(error.status).toBe(400)
  expect(error.response?.data).toEqual({
    error: 'invalid_grant',
    error_description: 'Token has been expired or revoked.',
  })
  expect(emulator.state.activeGrants(ADA)).toEqual([])
})

test('revoking the refresh token through the client ends its access tokens too', async () => {
  const { client, tokens, drive: api } = await connect()

  await client.revokeToken(tokens.refresh_token ?? '')
  const error = await failureOf(api.files.list({ q: LISTING_Q }))

  expect(emulator.state.requestCount('revoke')).toBe(1)
  expect([error.status, driveReason(error)]).toEqual([401, 'authError'])
})

test('with openid and email scopes the id_token verifies with the real client', async () => {
  const { client, tokens } = await connect(ADA, { scope: ['openid', 'email', DRIVE_READONLY] })

  const ticket = await client.verifyIdToken({ idToken: tokens.id_token ?? '', audience: emulator.clientId })

  expect(ticket.getPayload()).toMatchObject({ email: ADA, email_verified: true, aud: emulator.clientId })
  expect(tokens.scope?.split(' ')).toEqual([
    'openid',
    'https://www.googleapis.com/auth/userinfo.email',
    DRIVE_READONLY,
  ])
})

test('files added, updated and trashed by a test show in the next listing', async () => {
  const { drive: api } = await connect()
  const added = emulator.state.addFile({
    owner: ADA,
    name: 'fresh.txt',
    mimeType: MIME.text,
    content: 'Fresh fact.',
  })
  const before = emulator.state.getFile(FIXTURE_FILES.notes.id)

  const updated = emulator.state.updateFile(FIXTURE_FILES.notes.id, { content: 'Rewritten notes.' })
  emulator.state.trashFile(FIXTURE_FILES.zephyrBrief.id)
  const { files } = await listAll(api, { fields: 'nextPageToken, files(id, version, modifiedTime)' })

  const ids = files.map((f) => f.id)
  expect(added.id).toMatch(/^[\w-]{28,44}$/)
  expect(ids).toContain(added.id)
  expect(ids).not.toContain(FIXTURE_FILES.zephyrBrief.id)
  expect(Number(updated.version)).toBe(Number(before?.version) + 1)
  expect(Date.parse(updated.modifiedTime)).toBeGreaterThan(Date.parse(before?.modifiedTime ?? ''))
  expect(files.find((f) => f.id === FIXTURE_FILES.notes.id)?.version).toBe(updated.version)
})

test('the fixture PDFs are what they claim: three pages, and one that is encrypted', async () => {
  const { drive: api } = await connect()
  const download = async (fileId: string) =>
    new Uint8Array(
      (await api.files.get({ fileId, alt: 'media' }, { responseType: 'arraybuffer' })).data as ArrayBuffer,
    )

  const brief = await PDFDocument.load(await download(FIXTURE_FILES.zephyrBrief.id))
  const locked = download(FIXTURE_FILES.encryptedPdf.id).then((bytes) => PDFDocument.load(bytes))

  expect(brief.getPageCount()).toBe(3)
  expect(FIXTURE_FILES.zephyrBrief.facts).toContainEqual({ text: ZEPHYR_LAUNCH_FACT, page: 2 })
  await expect(locked).rejects.toThrow(/encrypted/)
})

test('the change feed: a start token, then each changed file once at its latest state, deletions as removed, paged', async () => {
  const { drive: api } = await connect()
  const { data: start } = await api.changes.getStartPageToken({})
  expect(start).toEqual({ kind: 'drive#startPageToken', startPageToken: expect.stringMatching(/^\d+$/) })
  emulator.state.updateFile(FIXTURE_FILES.notes.id, { content: 'first edit' })
  emulator.state.updateFile(FIXTURE_FILES.notes.id, { name: 'notes-renamed.txt' })
  emulator.state.trashFile(FIXTURE_FILES.meetingMinutes.id)
  emulator.state.removeFile(FIXTURE_FILES.handbook.id)
  emulator.state.addFile({ owner: BOB, name: 'bobs-only.txt', mimeType: MIME.text, content: 'not Ada’s' })
  emulator.state.setMaxPageSize(2)

  const first = await api.changes.list({
    pageToken: start.startPageToken ?? '',
    fields: 'nextPageToken, newStartPageToken, changes(fileId, removed, file(name, trashed))',
  })
  const second = await api.changes.list({
    pageToken: first.data.nextPageToken ?? '',
    fields: 'nextPageToken, newStartPageToken, changes(fileId, removed, file(name, trashed))',
  })

  expect(first.data.newStartPageToken).toBeUndefined()
  expect(first.data.changes).toEqual([
    { fileId: FIXTURE_FILES.notes.id, removed: false, file: { name: 'notes-renamed.txt', trashed: false } },
    {
      fileId: FIXTURE_FILES.meetingMinutes.id,
      removed: false,
      file: { name: 'meeting-minutes.md', trashed: true },
    },
  ])
  expect(second.data.nextPageToken).toBeUndefined()
  expect(second.data.changes).toEqual([{ fileId: FIXTURE_FILES.handbook.id, removed: true }])
  const after = await api.changes.list({ pageToken: second.data.newStartPageToken ?? '' })
  expect(after.data).toEqual({
    kind: 'drive#changeList',
    newStartPageToken: second.data.newStartPageToken,
    changes: [],
  })
})

test('changes.list refuses a missing or expired token, and shared-drive items without supportsAllDrives, as 400s', async () => {
  const { drive: api } = await connect()
  const { data: start } = await api.changes.getStartPageToken({})
  emulator.state.expireChangeTokens()

  const expired = await failureOf(
    api.changes.list({ pageToken: start.startPageToken ?? '' }, { retry: false }),
  )
  const missing = await failureOf(api.changes.list({ pageToken: '' }, { retry: false }))
  const unsupported = await failureOf(
    api.changes.list(
      { pageToken: start.startPageToken ?? '', includeItemsFromAllDrives: true },
      { retry: false },
    ),
  )

  expect([expired.response?.status, driveReason(expired)]).toEqual([400, 'invalid'])
  expect(missing.response?.status).toBe(400)
  expect(driveReason(missing)).toBe('required')
  expect(unsupported.response?.status).toBe(400)
  const { data: fresh } = await api.changes.getStartPageToken({})
  expect((await api.changes.list({ pageToken: fresh.startPageToken ?? '' })).status).toBe(200)
})

test("a shared drive's files are listed for its members with corpora=allDrives, read only with supportsAllDrives", async () => {
  const team = emulator.state.addSharedDrive({ name: 'Team', members: [ADA] })
  const plan = emulator.state.addFile({
    owner: ADA,
    driveId: team.id,
    parents: [team.id],
    name: 'team-plan.txt',
    mimeType: MIME.text,
    content: 'The team meets on Thursdays.',
  })
  const { drive: api } = await connect()
  const { drive: bobs } = await connect(BOB)

  const mine = await listAll(api)
  const all = await listAll(api, {
    corpora: 'allDrives',
    includeItemsFromAllDrives: true,
    supportsAllDrives: true,
  })
  const bobsAll = await listAll(bobs, {
    corpora: 'allDrives',
    includeItemsFromAllDrives: true,
    supportsAllDrives: true,
  })
  const withoutInclude = await failureOf(api.files.list({ corpora: 'allDrives' }, { retry: false }))
  const hidden = await failureOf(api.files.get({ fileId: plan.id }, { retry: false }))
  const { data: seen } = await api.files.get({
    fileId: plan.id,
    supportsAllDrives: true,
    fields: 'name, driveId, owners',
  })

  expect(mine.files.map((f) => f.name)).not.toContain('team-plan.txt')
  expect(all.files.map((f) => f.name)).toContain('team-plan.txt')
  expect(bobsAll.files.map((f) => f.name)).toEqual(['bob-notes.txt'])
  expect(withoutInclude.response?.status).toBe(400)
  expect(hidden.response?.status).toBe(404)
  expect(seen).toEqual({ name: 'team-plan.txt', driveId: team.id })
})

test('a shortcut carries its target id and type', async () => {
  const shortcut = emulator.state.addFile({
    owner: ADA,
    name: 'Notes (shortcut)',
    mimeType: 'application/vnd.google-apps.shortcut',
    shortcutTargetId: FIXTURE_FILES.notes.id,
  })
  const { drive: api } = await connect()

  const { data } = await api.files.get({ fileId: shortcut.id, fields: 'mimeType, shortcutDetails' })
  const download = await failureOf(api.files.get({ fileId: shortcut.id, alt: 'media' }, { retry: false }))

  expect(data).toEqual({
    mimeType: 'application/vnd.google-apps.shortcut',
    shortcutDetails: { targetId: FIXTURE_FILES.notes.id, targetMimeType: MIME.text },
  })
  expect(download.response?.status).toBe(403)
})

const DRIVE_FULL = 'https://www.googleapis.com/auth/drive'

test("folders: listed with mimeType = folder, their children with 'id' in parents, each file with its parents", async () => {
  const hr = emulator.state.addFile({ owner: ADA, name: 'HR', mimeType: MIME.folder })
  const policy = emulator.state.addFile({
    owner: ADA,
    name: 'leave.txt',
    mimeType: MIME.text,
    content: 'Leave.',
    parents: [hr.id],
  })
  const { drive: api } = await connect()

  const folders = await api.files.list({
    q: `mimeType = '${MIME.folder}' and trashed = false`,
    fields: 'files(id, name, parents)',
  })
  const children = await api.files.list({ q: `'${hr.id}' in parents`, fields: 'files(id, parents)' })

  expect(folders.data.files?.map((f) => f.name).sort()).toEqual(['HR', 'Projects'])
  const root = emulator.state.accountOf(ADA).rootFolderId
  expect(folders.data.files?.find((f) => f.id === hr.id)?.parents).toEqual([root])
  expect(children.data.files).toEqual([{ id: policy.id, parents: [hr.id] }])
})

test('files.update moves a file with addParents/removeParents (one parent at most), needs a scope that writes', async () => {
  const hr = emulator.state.addFile({ owner: ADA, name: 'HR', mimeType: MIME.folder })
  const { drive: api } = await connect(ADA, { scope: [DRIVE_FULL] })
  const before = emulator.state.getFile(FIXTURE_FILES.notes.id)

  const moved = await api.files.update({
    fileId: FIXTURE_FILES.notes.id,
    addParents: hr.id,
    removeParents: before?.parents[0] ?? '',
    fields: 'id, parents, version, modifiedTime',
  })
  const twoParents = await failureOf(
    api.files.update({ fileId: FIXTURE_FILES.notes.id, addParents: 'root' }, { retry: false }),
  )
  const renamed = await api.files.update({
    fileId: FIXTURE_FILES.notes.id,
    requestBody: { name: 'team-notes.txt' },
    fields: 'name',
  })
  const { drive: readOnly } = await connect(BOB)
  const refused = await failureOf(
    readOnly.files.update({ fileId: FIXTURE_FILES.bobNotes.id, addParents: 'root' }, { retry: false }),
  )

  expect(moved.data.parents).toEqual([hr.id])
  // A move is a metadata change: the version grows, the modified time stays.
  expect(Number(moved.data.version)).toBe(Number(before?.version) + 1)
  expect(moved.data.modifiedTime).toBe(before?.modifiedTime)
  expect(twoParents.response?.status).toBe(403)
  expect(JSON.stringify(twoParents.response?.data)).toContain('cannotAddParent')
  expect(renamed.data.name).toBe('team-notes.txt')
  expect(refused.response?.status).toBe(403)
})

test('trashing a folder trashes what is below it (each a change), restoring brings back only that; deleting a folder deletes it', async () => {
  const hr = emulator.state.addFile({ owner: ADA, name: 'HR', mimeType: MIME.folder })
  const policies = emulator.state.addFile({
    owner: ADA,
    name: 'Policies',
    mimeType: MIME.folder,
    parents: [hr.id],
  })
  const deep = emulator.state.addFile({
    owner: ADA,
    name: 'deep.txt',
    mimeType: MIME.text,
    parents: [policies.id],
  })
  const own = emulator.state.addFile({ owner: ADA, name: 'own.txt', mimeType: MIME.text, parents: [hr.id] })
  emulator.state.trashFile(own.id)
  const { drive: api } = await connect(ADA, { scope: [DRIVE_FULL] })
  const { data: start } = await api.changes.getStartPageToken({})

  await api.files.update({ fileId: hr.id, requestBody: { trashed: true } })
  const changes = await api.changes.list({
    pageToken: start.startPageToken ?? '',
    fields: 'newStartPageToken, changes(fileId, file(trashed, explicitlyTrashed))',
  })
  expect(changes.data.changes).toEqual([
    { fileId: hr.id, file: { trashed: true, explicitlyTrashed: true } },
    { fileId: policies.id, file: { trashed: true, explicitlyTrashed: false } },
    { fileId: deep.id, file: { trashed: true, explicitlyTrashed: false } },
  ])

  await api.files.update({ fileId: hr.id, requestBody: { trashed: false } })
  expect(emulator.state.getFile(deep.id)?.trashed).toBe(false)
  expect(emulator.state.getFile(own.id)?.trashed).toBe(true)

  const deleted = await api.files.delete({ fileId: hr.id })
  expect(deleted.status).toBe(204)
  expect([hr, policies, deep, own].map((f) => emulator.state.getFile(f.id))).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ])
  const after = await api.changes.list({
    pageToken: changes.data.newStartPageToken ?? '',
    fields: 'changes(fileId, removed)',
  })
  expect(
    after.data.changes
      ?.filter((c) => c.removed)
      .map((c) => c.fileId)
      .sort(),
  ).toEqual([hr.id, policies.id, deep.id, own.id].sort())
})
