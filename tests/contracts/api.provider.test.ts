/**
 * Replays the pact the consumer tests wrote against the real server (buildApp on in-memory
 * PGlite, listening on a loopback port). Provider states are sentences; each handler builds that
 * state through the public API and, where the state is "signed in", hands the cookie to the
 * request filter, which adds it to the replayed request as the browser would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Verifier } from '@pact-foundation/pact'
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import {
  chatConversations,
  documents,
  libraryDocuments,
  refreshTokenFamilies,
  usageSubjectDays,
  users,
} from '#server/db/schema.ts'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { BOB, FIXTURE_FILES, MIME } from '#tests/fakes/google/fixtures.ts'
import { call, createConversation, indexTravelPolicy, sendOk } from '#tests/server/support/chat-helpers.ts'
import { buildDriveApp, consentUrl, followRedirect } from '#tests/server/support/drive-helpers.ts'
import { register, signIn, TEST_PASSWORD } from '#tests/server/support/helper.ts'
import { PROVIDER } from './pact.ts'
import { verifierSource } from './pact-broker.ts'
import {
  aSignedVisitorAsked,
  aVisitorAsked,
  publishedAssistant,
  publishedAssistantAVisitorAsked,
} from './publishing-states.ts'

let app: App
let baseUrl: string
/** Google, for the Drive states: the server's real OAuth and Drive clients talk to it. */
let emulator: GoogleEmulator
/** The Cookie header for the interaction being replayed; set by its state, cleared before each. */
let cookie: string | undefined

const accounts = new Map<string, string>()

/** Creates the account once per verification; later states reuse it. */
async function ensureAccount(email: string, password = TEST_PASSWORD): Promise<void> {
  if (accounts.has(email)) return
  await register(app, email, password)
  accounts.set(email, password)
}

async function signInAs(email: string, password = TEST_PASSWORD): Promise<string> {
  await ensureAccount(email, password)
  return (await signIn(app, email, password)).cookie
}

/**
 * Signs alice in and connects her Drive through the real connect flow (connect URL, consent on
 * the emulator, Google's redirect to the callback), on a Drive reset to its fixtures. Her Drive is
 * the emulator's one-text-file Drive (BOB's): every file in it has both links, which is what the
 * listing's matcher can express (a matcher cannot say "string or null").
 */
async function aliceWithDrive(): Promise<string> {
  emulator.state.reset()
  const aliceCookie = await signInAs('alice@example.com', 'alice-password')
  const redirect = await completeConsent(await consentUrl(app, aliceCookie), { account: BOB })
  const page = await followRedirect(app, redirect, aliceCookie)
  if (page.statusCode !== 200) throw new Error(`connecting Drive answered ${page.statusCode}`)
  return aliceCookie
}

async function aliceAccount(): Promise<{ id: string }> {
  const [alice] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'alice@example.com'))
  if (!alice) throw new Error('alice has no account')
  return alice
}

/**
 * Syncs alice's Drive through the ingest call, on a library emptied first (an earlier interaction
 * may have deleted a document, which keeps it out of syncs), and answers the library id of `name`.
 */
async function syncedDocumentId(aliceCookie: string, name: string): Promise<string> {
  const headers = { cookie: aliceCookie }
  const alice = await aliceAccount()
  await app.db.delete(libraryDocuments).where(eq(libraryDocuments.userId, alice.id))
  await app.db.delete(documents).where(eq(documents.userId, alice.id))
  const ingest = await app.inject({
    ...{ method: driveEndpoints.ingestDocuments.method, url: driveEndpoints.ingestDocuments.path },
    headers,
    payload: { email: 'alice@example.com' },
  })
  if (ingest.statusCode !== 200) throw new Error(`ingest answered ${ingest.statusCode}`)
  const list = await app.inject({ method: 'GET', url: documentEndpoints.listDocuments.path, headers })
  const found = documentEndpoints.listDocuments.response
    .parse(list.json())
    .data.documents.find((d) => d.name === name)
  if (!found) throw new Error(`${name} is not in alice's library`)
  return found.id
}

async function userIdOf(email: string): Promise<string> {
  const [user] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  if (!user) throw new Error(`${email} has no account`)
  return user.id
}

// Building the app migrates a fresh database (18 migrations): 13 s on a loaded 2-core machine.
beforeAll(async () => {
  emulator = await createGoogleEmulator()
  app = await buildDriveApp(emulator)
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
}, 60_000)

afterAll(async () => {
  await app.close()
  await emulator.close()
})

test('the server honours every interaction in the pact', async () => {
  await new Verifier({
    provider: PROVIDER,
    providerBaseUrl: baseUrl,
    // The local pact file, or the broker's pacts (results published) when PACT_BROKER_BASE_URL is set.
    ...verifierSource(process.env),
    logLevel: 'warn',
    beforeEach: async () => {
      cookie = undefined
    },
    requestFilter: (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      if (cookie) req.headers.cookie = cookie
      // The verifier sends body-less POSTs with no length; Pact's proxy would forward them chunked,
      // which the server reads as a body without a content type (415). Say "no body", as browsers do.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        req.headers['content-length'] = '0'
      }
      next()
    },
    stateHandlers: {
      'no account exists for new@example.com': async () => undefined,
      'an account exists for taken@example.com': async () => {
        await ensureAccount('taken@example.com')
      },
      'an account exists for alice@example.com with password alice-password': async () => {
        await ensureAccount('alice@example.com', 'alice-password')
      },
      'nobody is signed in': async () => undefined,
      'alice@example.com is signed in': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
      },
      'alice@example.com holds a live refresh token': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
      },
      // Chat states build a fresh conversation each time (they are cheap) and hand its ids to the
      // replayed request (the consumer's fromProviderState `${sessionId}` / `${answerId}`).
      // Alice has no documents and the app no model: answers carry `sources: []`.
      'alice@example.com is signed in with one answered chat session': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const conversation = await createConversation(app, cookie, 'Hello')
        const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Hello')
        return { sessionId: conversation._id, answerId: aiMessage._id }
      },
      'alice@example.com is signed in with an answer written twice': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const conversation = await createConversation(app, cookie, 'Twice')
        const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Hello')
        const again = await call(app, chatEndpoints.regenerateMessage, {
          cookie,
          params: { id: conversation._id, messageId: aiMessage._id },
        })
        if (!again.body.includes('event: done')) throw new Error(`regenerate failed: ${again.body}`)
        return { sessionId: conversation._id, answerId: aiMessage._id }
      },
      'alice@example.com is signed in with a disliked answer': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const conversation = await createConversation(app, cookie, 'Disliked')
        const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Hello')
        await call(app, chatEndpoints.setFeedback, {
          cookie,
          params: { id: aiMessage._id },
          body: { feedback: 'dislike' },
        })
        return { sessionId: conversation._id, answerId: aiMessage._id }
      },
      'alice@example.com is signed in with a file uploaded into a chat session': async () => {
        await ensureAccount('alice@example.com', 'alice-password')
        const alice = await signIn(app, 'alice@example.com', 'alice-password')
        cookie = alice.cookie
        const conversation = await createConversation(app, cookie, 'With a file')
        const text = 'The harbour notes list every mooring. '.repeat(400)
        await app.library.upload(alice.user._id, conversation._id, {
          name: 'harbour-notes.txt',
          mimeType: 'text/plain',
          bytes: new TextEncoder().encode(text),
        })
        return { sessionId: conversation._id }
      },
      // A fresh assistant each time, its id handed to the replayed request (`${assistantId}`).
      'alice@example.com is signed in with one assistant': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        for (const old of await app.assistants.list({ id: await userIdOf('alice@example.com') }))
          await app.assistants.remove({ id: await userIdOf('alice@example.com') }, old._id)
        const created = await app.assistants.create(
          { id: await userIdOf('alice@example.com') },
          { name: 'HR bot', fallbackAnswer: 'Not in my documents.' },
        )
        return { assistantId: created._id }
      },
      // A fresh key each time (the earlier ones revoked, so the 20-key limit never counts them),
      // its id handed to the replayed request (`${keyId}`).
      'alice@example.com is signed in with one API key': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const alice = { id: await userIdOf('alice@example.com') }
        for (const old of await app.apiKeys.list(alice)) await app.apiKeys.remove(alice, old._id)
        const created = await app.apiKeys.create(alice, {
          name: 'Sync script',
          scopes: ['library'],
          expiresInDays: 90,
        })
        return { keyId: created._id }
      },
      // One key's and one assistant's answers this month (recorded as an API answer would be);
      // alice's earlier figures per key and assistant are cleared, as those keys and assistants
      // other states remove would show with a null name.
      'alice@example.com is signed in and spent tokens through an API key and an assistant this month':
        async () => {
          cookie = await signInAs('alice@example.com', 'alice-password')
          const alice = { id: await userIdOf('alice@example.com') }
          await app.db.delete(usageSubjectDays).where(eq(usageSubjectDays.userId, alice.id))
          const key = await app.apiKeys.create(alice, {
            name: 'Sync script',
            scopes: ['chat'],
            expiresInDays: 30,
          })
          const assistant = await app.assistants.create(alice, {
            name: 'HR bot',
            fallbackAnswer: 'Not in my documents.',
          })
          await app.usage.recordAnswer({
            ownerId: alice.id,
            source: 'api',
            keyId: key._id,
            assistantId: assistant._id,
            promptTokens: 100,
            completionTokens: 20,
          })
        },
      'alice@example.com is signed in with a published assistant that one visitor asked': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        return publishedAssistantAVisitorAsked(app, cookie, await userIdOf('alice@example.com'))
      },
      // The visitor calls (issue 37) take no session: the owner's cookie publishes, then is dropped.
      'an assistant of alice@example.com is published': async () => {
        const owner = await signInAs('alice@example.com', 'alice-password')
        return {
          publicId: (await publishedAssistant(app, owner, await userIdOf('alice@example.com'))).publicId,
        }
      },
      'a visitor asked a published assistant of alice@example.com one question': async () => {
        const owner = await signInAs('alice@example.com', 'alice-password')
        const visitor = await aVisitorAsked(app, owner, await userIdOf('alice@example.com'))
        cookie = visitor.visitorCookie
        return { publicId: visitor.publicId, messageId: visitor.messageId }
      },
      'a signed-in user of a host site asked a published assistant of alice@example.com one question':
        async () => {
          const owner = await signInAs('alice@example.com', 'alice-password')
          return aSignedVisitorAsked(app, owner, await userIdOf('alice@example.com'), new Date())
        },
      'alice@example.com is signed in with a shared chat session': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const conversation = await createConversation(app, cookie, 'Hello')
        await sendOk(app, cookie, conversation._id, 'Hello')
        await app.shares.share(await userIdOf('alice@example.com'), conversation._id)
        return { sessionId: conversation._id }
      },
      // Bob's, since it needs a document to cite (alice's answers carry none); read by anyone.
      'a chat session that cites a document is shared by its link': async () => {
        const bob = await signInAs('bob@example.com')
        const bobId = await userIdOf('bob@example.com')
        await indexTravelPolicy(app, bobId)
        const conversation = await createConversation(app, bob, 'Meals abroad')
        await sendOk(app, bob, conversation._id, 'What is the daily meal allowance abroad?')
        const { url } = await app.shares.share(bobId, conversation._id)
        return { token: url.slice(url.lastIndexOf('/') + 1) }
      },
      'alice@example.com is signed in with an empty chat session': async () => {
        cookie = await signInAs('alice@example.com', 'alice-password')
        const conversation = await createConversation(app, cookie, 'Empty')
        return { sessionId: conversation._id }
      },
      // Drive states hand the file id the provider's Drive holds to the replayed request.
      'alice@example.com is signed in with Google Drive connected': async () => {
        cookie = await aliceWithDrive()
        return { fileId: FIXTURE_FILES.bobNotes.id }
      },
      // Issue 36's folder picker: one top folder (a matcher cannot say "folder id or null").
      'alice@example.com is signed in with a synced Drive that has a folder': async () => {
        cookie = await aliceWithDrive()
        const hr = emulator.state.addFile({ owner: BOB, name: 'HR', mimeType: MIME.folder })
        emulator.state.addFile({
          owner: BOB,
          name: 'leave-policy.txt',
          mimeType: 'text/plain',
          content: 'Leave is booked a week ahead.\n',
          parents: [hr.id],
        })
        await syncedDocumentId(cookie, 'leave-policy.txt')
      },
      'alice@example.com is signed in with a Google Doc in her connected Drive': async () => {
        cookie = await aliceWithDrive()
        const doc = emulator.state.addFile({
          owner: BOB,
          name: 'Onboarding Handbook',
          mimeType: MIME.googleDoc,
          exports: { 'text/markdown': '# Onboarding Handbook\n\nWelcome.\n' },
        })
        return { fileId: doc.id }
      },
      // Library states: alice's Drive synced through the ingest call; the id is her document's.
      'alice@example.com is signed in with a synced Drive library': async () => {
        cookie = await aliceWithDrive()
        return { documentId: await syncedDocumentId(cookie, FIXTURE_FILES.bobNotes.name) }
      },
      'alice@example.com is signed in with a document that could not be read': async () => {
        cookie = await aliceWithDrive()
        emulator.state.addFile({
          owner: BOB,
          name: 'broken-scan.pdf',
          mimeType: 'application/pdf',
          content: '%PDF-1.7 this is not really a PDF',
        })
        return { documentId: await syncedDocumentId(cookie, 'broken-scan.pdf') }
      },
      'alice@example.com is signed in with a Drive document removed from her library': async () => {
        cookie = await aliceWithDrive()
        const documentId = await syncedDocumentId(cookie, FIXTURE_FILES.bobNotes.name)
        const removed = await app.inject({
          method: documentEndpoints.deleteDocument.method,
          url: fillPath(documentEndpoints.deleteDocument.path, { id: documentId }),
          headers: { cookie },
        })
        if (removed.statusCode !== 200) throw new Error(`delete answered ${removed.statusCode}`)
        return { documentId }
      },
      'alice@example.com is signed in without Google Drive': async () => {
        await ensureAccount('alice@example.com', 'alice-password')
        const alice = await signIn(app, 'alice@example.com', 'alice-password')
        cookie = alice.cookie
        await app.googleConnections?.forget(alice.user._id)
      },
      // Dora is made afresh for each interaction: one of them deletes her account, others change
      // her password or sign her other device out. The other device's session id goes to the path.
      'dora@example.com is signed in with password dora-password, and on one other device': async () => {
        await app.db.delete(users).where(eq(users.email, 'dora@example.com'))
        accounts.delete('dora@example.com')
        await ensureAccount('dora@example.com', 'dora-password')
        await signIn(app, 'dora@example.com', 'dora-password')
        cookie = await signInAs('dora@example.com', 'dora-password')
        const [other] = await app.db
          .select({ id: refreshTokenFamilies.id })
          .from(refreshTokenFamilies)
          .innerJoin(users, eq(users.id, refreshTokenFamilies.userId))
          .where(eq(users.email, 'dora@example.com'))
          .orderBy(asc(refreshTokenFamilies.createdAt))
          .limit(1)
        return { otherSessionId: other?.id ?? '' }
      },
      'erin@example.com, a new account, is signed in with one answered chat session': async () => {
        await app.db.delete(users).where(eq(users.email, 'erin@example.com'))
        accounts.delete('erin@example.com')
        cookie = await signInAs('erin@example.com')
        const conversation = await createConversation(app, cookie, 'Hello')
        await sendOk(app, cookie, conversation._id, 'Hello')
      },
      // Scoped conversations (D70): alice's synced Drive document, and a conversation of hers.
      'alice@example.com is signed in with an empty chat session and a synced Drive library': async () => {
        cookie = await aliceWithDrive()
        const documentId = await syncedDocumentId(cookie, FIXTURE_FILES.bobNotes.name)
        const conversation = await createConversation(app, cookie, 'Empty')
        return { sessionId: conversation._id, documentId }
      },
      // Her only conversation, so every one the list answers is limited to that document.
      'alice@example.com is signed in with one chat session limited to a document': async () => {
        cookie = await aliceWithDrive()
        const documentId = await syncedDocumentId(cookie, FIXTURE_FILES.bobNotes.name)
        const alice = await aliceAccount()
        await app.db.delete(chatConversations).where(eq(chatConversations.userId, alice.id))
        const created = await app.inject({
          method: chatEndpoints.createConversation.method,
          url: chatEndpoints.createConversation.path,
          headers: { cookie },
          payload: { title: 'About my notes', scope: { documentIds: [documentId] } },
        })
        if (created.statusCode !== 201) throw new Error(`create answered ${created.statusCode}`)
        return {
          sessionId: chatEndpoints.createConversation.response.parse(created.json()).data._id,
          documentId,
        }
      },
      'alice@example.com is signed in and bob@example.com has a chat session': async () => {
        const bob = await signInAs('bob@example.com')
        const conversation = await createConversation(app, bob, "Bob's notes")
        cookie = await signInAs('alice@example.com', 'alice-password')
        return { sessionId: conversation._id }
      },
    },
  }).verifyProvider()
})
