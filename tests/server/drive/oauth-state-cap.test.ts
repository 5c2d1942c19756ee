import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { googleOauthStates } from '#server/db/schema.ts'
import { MAX_PENDING_OAUTH_STATES } from '#server/drive/google-connections.ts'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import {
  connectionRow,
  consentUrl,
  followRedirect,
  newPerson,
  setUpDriveApp,
} from '../support/drive-helpers.ts'

let app: App
let clock = Date.now()

setUpDriveApp(
  (started) => {
    ;({ app } = started)
  },
  { now: () => new Date(clock), resetEachTest: false },
)

const pendingOf = (userId: string) =>
  app.db.select().from(googleOauthStates).where(eq(googleOauthStates.userId, userId))

test('opening the connect window again and again keeps only the newest few pending states; the oldest no longer work', async () => {
  const person = await newPerson(app)
  const other = await newPerson(app)
  await consentUrl(app, other.cookie)
  const urls: string[] = []
  for (let i = 0; i < 40; i++) {
    clock += 1000
    urls.push(await consentUrl(app, person.cookie))
  }
  expect(await pendingOf(person.id)).toHaveLength(MAX_PENDING_OAUTH_STATES)
  // Another person's pending window is not touched.
  expect(await pendingOf(other.id)).toHaveLength(1)

  const oldest = await followRedirect(
    app,
    await completeConsent(urls[0] ?? '', { account: ADA }),
    person.cookie,
  )
  expect(oldest.statusCode).toBe(400)
  expect(await connectionRow(app, person.id)).toBeUndefined()

  const newest = await followRedirect(
    app,
    await completeConsent(urls.at(-1) ?? '', { account: ADA }),
    person.cookie,
  )
  expect(newest.statusCode).toBe(200)
  expect(await connectionRow(app, person.id)).toBeDefined()
})

test('expired states are deleted when the next connect window opens', async () => {
  const person = await newPerson(app)
  await consentUrl(app, person.cookie)
  clock += 11 * 60_000
  const later = await newPerson(app)
  await consentUrl(app, later.cookie)
  expect(await pendingOf(person.id)).toHaveLength(0)
})
