/**
 * The API as the views meet it: MSW handlers whose bodies are typed from contracts/, so a test
 * can only answer what the real server could. Each test installs the answers it needs.
 */
import { HttpResponse, http, type JsonBodyType } from 'msw'
import { setupServer } from 'msw/node'
import type { z } from 'zod'
import { accountEndpoints } from '#contracts/account.ts'
import { apiKeyEndpoints } from '#contracts/api-keys.ts'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { authEndpoints, type User } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import type { Endpoint, ErrorEnvelope } from '#contracts/endpoint.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import { usageEndpoints } from '#contracts/usage.ts'

/**
 * The dashboard loads the conversations as it opens (product §4), and Documents its library, so every
 * test that reaches them would need an answer: the defaults are "no conversations yet", an
 * empty library and no shared links (the conversation's Share and History list them). Chat and
 * library tests override them.
 */
export const server = setupServer(
  // What the account screens offer (D77, D79): the spec's screens plus 'Forgot password?'.
  ok(authEndpoints.options, {
    success: true,
    data: { google: false, passwordReset: true, signup: 'open', emailVerification: false },
  }),
  ok(chatEndpoints.listConversations, { success: true, data: [] }),
  // Settings reads the account and its sessions (D78, D81).
  ok(accountEndpoints.account, {
    success: true,
    data: {
      email: 'ada@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
      hasPassword: true,
      googleLinked: false,
    },
  }),
  ok(accountEndpoints.listSessions, { success: true, data: { sessions: [] } }),
  // …and its API keys, with the assistants a key may be limited to (issue 38).
  ok(apiKeyEndpoints.listApiKeys, { success: true, data: [] }),
  ok(assistantEndpoints.listAssistants, { success: true, data: [] }),
  // And what the person's answers spent (D126): nothing yet.
  ok(usageEndpoints.usage, {
    success: true,
    data: {
      days: [],
      month: {
        month: '2026-01',
        sources: {
          app: { tokens: 0, answers: 0 },
          api: { tokens: 0, answers: 0 },
          published: { tokens: 0, answers: 0 },
        },
        keys: [],
        assistants: [],
      },
      tokensPerDay: 1_000_000,
    },
  }),
  ok(sharingEndpoints.listShares, { success: true, data: [] }),
  ok(documentEndpoints.listDocuments, {
    success: true,
    data: { documents: [], progress: { running: false, done: 0, total: 0 }, removed: [] },
  }),
  ok(documentEndpoints.firstRun, { success: true, data: { ready: 0, questions: [] } }),
)

export const ada: User = { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' }

/** jsdom's origin: the app under test calls the same origin, as in production. */
export function urlOf(endpoint: Endpoint): string {
  return new URL(endpoint.path, window.location.origin).href
}

type Body<E extends Endpoint> = z.input<E['response']>

function handle<E extends Endpoint>(endpoint: E, answer: () => Promise<Response> | Response) {
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'
  return http[method](urlOf(endpoint), answer)
}

/** A success body as the endpoint's contract describes it. */
export function okResponse<E extends Endpoint>(_endpoint: E, body: Body<E>, status = 200) {
  // The contract already typed the body; zod's input type is just wider than MSW's JSON type.
  return HttpResponse.json(body as JsonBodyType, { status })
}

/** The API's one failure envelope. */
export function errorResponse(status: number, message = 'Request failed') {
  return HttpResponse.json<ErrorEnvelope>({ success: false, message }, { status })
}

export function ok<E extends Endpoint>(endpoint: E, body: Body<E>, status = 200) {
  return handle(endpoint, () => okResponse(endpoint, body, status))
}

export function fail(endpoint: Endpoint, status: number, message = 'Request failed') {
  return handle(endpoint, () => errorResponse(status, message))
}

/** Answers the n-th call (from 1) with answer(n) and counts the calls. */
export function counted(endpoint: Endpoint, answer: (call: number) => Response) {
  let calls = 0
  const handler = handle(endpoint, () => {
    calls += 1
    return answer(calls)
  })
  return { handler, calls: () => calls }
}

export function unreachable(endpoint: Endpoint) {
  return handle(endpoint, () => HttpResponse.error())
}

/** Holds the answer until the test calls release(), to see what a person sees meanwhile. */
export function held<E extends Endpoint>(endpoint: E, body: Body<E>, status = 200) {
  const gate = Promise.withResolvers<void>()
  const handler = handle(endpoint, async () => {
    await gate.promise
    return okResponse(endpoint, body, status)
  })
  return { handler, release: () => gate.resolve() }
}

export const signedIn = (user: User = ada) => ok(authEndpoints.me, { success: true, data: user })
export const signedOut = () => [
  fail(authEndpoints.me, 401, 'Not signed in'),
  fail(authEndpoints.refreshToken, 401, 'Session expired'),
]
