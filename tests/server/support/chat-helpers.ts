/**
 * What the chat tests share: one call per endpoint through `inject` with the contract's path and
 * method, bodies parsed with the contract's schemas, and row counts read straight from the tables
 * (to prove what was, or was not, stored).
 */
import { and, count, eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { type Conversation, chatEndpoints, type SendMessageResponse } from '#contracts/chat.ts'
import { type Endpoint, ErrorEnvelopeSchema, fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { chatConversations, chatMessages } from '#server/db/schema.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'

/** The settings of an app whose model is `llm` (a fake model), with `env` beside them. */
export function modelEnv(llm: { baseUrl: string }, env: Record<string, string> = {}): Record<string, string> {
  return { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', ...env }
}

export type CallOptions = { cookie?: string; params?: Record<string, string>; body?: unknown }

export function call(app: App, endpoint: Endpoint, { cookie, params, body }: CallOptions = {}) {
  return app.inject({
    method: endpoint.method,
    url: fillPath(endpoint.path, params),
    headers: cookie ? { cookie } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  })
}

export function errorOf(response: LightMyRequestResponse): string {
  return ErrorEnvelopeSchema.parse(response.json()).message
}

export async function createConversation(app: App, cookie: string, title = 'Hello'): Promise<Conversation> {
  const response = await call(app, chatEndpoints.createConversation, { cookie, body: { title } })
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.createConversation.response.parse(response.json()).data
}

export function send(app: App, cookie: string, conversationId: string, content: string) {
  return call(app, chatEndpoints.sendMessage, {
    cookie,
    params: { id: conversationId },
    body: { content, isUser: true, messageType: 'text' },
  })
}

export async function sendOk(
  app: App,
  cookie: string,
  conversationId: string,
  content: string,
): Promise<SendMessageResponse> {
  const response = await send(app, cookie, conversationId, content)
  if (response.statusCode !== 200) throw new Error(`send failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.sendMessage.response.parse(response.json()).data
}

export async function listConversations(app: App, cookie: string): Promise<Conversation[]> {
  const response = await call(app, chatEndpoints.listConversations, { cookie })
  if (response.statusCode !== 200) throw new Error(`list failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.listConversations.response.parse(response.json()).data
}

export async function listMessages(app: App, cookie: string, conversationId: string) {
  const response = await call(app, chatEndpoints.listMessages, { cookie, params: { id: conversationId } })
  if (response.statusCode !== 200) throw new Error(`messages failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.listMessages.response.parse(response.json()).data
}

/** Rows in chat_messages, for one conversation or all of them. */
export async function countMessages(app: App, conversationId?: string): Promise<number> {
  const [row] = await app.db
    .select({ n: count() })
    .from(chatMessages)
    .where(conversationId ? eq(chatMessages.conversationId, conversationId) : undefined)
  return row?.n ?? 0
}

export async function conversationExists(
  app: App,
  conversationId: string,
  userId?: string,
): Promise<boolean> {
  const rows = await app.db
    .select({ id: chatConversations.id })
    .from(chatConversations)
    .where(
      and(
        eq(chatConversations.id, conversationId),
        userId ? eq(chatConversations.userId, userId) : undefined,
      ),
    )
  return rows.length > 0
}

/** The two-page travel policy the model tests ask about (page 2 holds the meal allowance). */
export function indexTravelPolicy(app: App, userId: string) {
  return indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'travel',
    name: 'Travel policy.pdf',
    mimeType: 'application/pdf',
    link: 'https://drive.example.com/travel',
    sections: [
      { page: 1, text: 'Employees travel in economy class on flights under six hours.' },
      { page: 2, text: 'The daily meal allowance abroad is 45 euros per person.' },
    ],
  })
}
