/**
 * What the Drive tests share: an app whose Google calls go to the emulator (short backoff so
 * retries take milliseconds), the connect flow as a browser does it (open the connect URL, consent
 * on the emulator's page, follow Google's redirect back with the same cookies), and one call per
 * Drive endpoint with the contract's path and method.
 */
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { DRIVE_CONNECT_PATH, driveEndpoints, type IngestReport } from '#contracts/drive.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App, BuildAppOptions } from '#server/app.ts'
import { googleConnections } from '#server/db/schema.ts'
import { type ConsentChoice, completeConsent } from '#tests/fakes/google/consent.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import { buildTestApp, register, signIn, uniqueEmail } from './helper.ts'

export const PUBLIC_URL = 'http://127.0.0.1:3000'

export function driveEnv(emulator: GoogleEmulator): Record<string, string> {
  return {
    GOOGLE_EMULATOR_URL: emulator.url,
    GOOGLE_CLIENT_ID: emulator.clientId,
    GOOGLE_CLIENT_SECRET: emulator.clientSecret,
    PUBLIC_URL,
  }
}

export function buildDriveApp(emulator: GoogleEmulator, options: BuildAppOptions = {}): Promise<App> {
  return buildTestApp({ env: driveEnv(emulator), googleRetry: { baseDelayMs: 1, maxDelayMs: 4 }, ...options })
}

export type DriveTestApp = { emulator: GoogleEmulator; app: App }

/**
 * One test file's Google emulator and an app that talks to it: started before the file's tests
 * and closed after them; with `resetEachTest` (the default) the emulator forgets its files,
 * grants and requests before each test. `onStart` hands both to the file's own variables.
 */
export function setUpDriveApp(
  onStart: (started: DriveTestApp) => void,
  { resetEachTest = true, ...options }: BuildAppOptions & { resetEachTest?: boolean } = {},
): void {
  let started: DriveTestApp | undefined
  beforeAll(async () => {
    const emulator = await createGoogleEmulator()
    started = { emulator, app: await buildDriveApp(emulator, options) }
    onStart(started)
  })
  afterAll(async () => {
    await started?.app.close()
    await started?.emulator.close()
  })
  if (resetEachTest) beforeEach(() => started?.emulator.state.reset())
}

export type Person = { id: string; email: string; cookie: string }

export async function newPerson(app: App, prefix = 'drive'): Promise<Person> {
  const email = uniqueEmail(prefix)
  const user = await register(app, email)
  const { cookie } = await signIn(app, email)
  return { id: user._id, email, cookie }
}

/** A new person with `account`'s Drive connected, and the emulator's request log cleared. */
export async function connectedPerson({ app, emulator }: DriveTestApp, account = ADA): Promise<Person> {
  const person = await newPerson(app)
  await connectDrive(app, person, { account })
  emulator.state.clearRequests()
  return person
}

/** `GET DRIVE_CONNECT_PATH` as the connect window opens it. */
export function openConnect(app: App, cookie?: string) {
  return app.inject({ method: 'GET', url: DRIVE_CONNECT_PATH, headers: cookie ? { cookie } : {} })
}

/** Where Google sent the window back to, requested on our app with `cookie`. */
export function followRedirect(app: App, redirect: URL, cookie?: string) {
  return app.inject({
    method: 'GET',
    url: `${redirect.pathname}${redirect.search}`,
    headers: cookie ? { cookie } : {},
  })
}

/** The consent URL the connect route redirected to. */
export async function consentUrl(app: App, cookie: string): Promise<string> {
  const response = await openConnect(app, cookie)
  const location = response.headers.location
  if (response.statusCode !== 302 || typeof location !== 'string') {
    throw new Error(`connect answered ${response.statusCode}: ${response.body}`)
  }
  return location
}

/** The whole connect flow; resolves to the callback page's response. */
export async function connectDrive(
  app: App,
  person: Person,
  choice: ConsentChoice = { account: ADA },
): Promise<LightMyRequestResponse> {
  const redirect = await completeConsent(await consentUrl(app, person.cookie), choice)
  return followRedirect(app, redirect, person.cookie)
}

export async function connectionRow(app: App, userId: string) {
  const [row] = await app.db.select().from(googleConnections).where(eq(googleConnections.userId, userId))
  return row
}

type DriveCall = { cookie?: string; email?: string; fileId?: string }

export function listFiles(app: App, { cookie, email }: DriveCall) {
  const query = email === undefined ? '' : `?${new URLSearchParams({ email })}`
  return app.inject({
    method: 'GET',
    url: `${driveEndpoints.listFiles.path}${query}`,
    headers: cookie ? { cookie } : {},
  })
}

export function getFile(app: App, { cookie, email, fileId = '' }: DriveCall) {
  const query = email === undefined ? '' : `?${new URLSearchParams({ email })}`
  return app.inject({
    method: 'GET',
    url: `${fillPath(driveEndpoints.getFile.path, { fileId })}${query}`,
    headers: cookie ? { cookie } : {},
  })
}

export function ingest(app: App, { cookie, email }: DriveCall) {
  return app.inject({
    method: 'POST',
    url: driveEndpoints.ingestDocuments.path,
    headers: cookie ? { cookie } : {},
    payload: email === undefined ? {} : { email },
  })
}

export async function ingestOk(app: App, person: Person): Promise<IngestReport> {
  const response = await ingest(app, person)
  if (response.statusCode !== 200) throw new Error(`ingest answered ${response.statusCode}: ${response.body}`)
  return driveEndpoints.ingestDocuments.response.parse(response.json()).data
}
