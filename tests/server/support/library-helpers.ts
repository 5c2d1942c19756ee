/**
 * Library documents for the tests that need them without Google or multipart: a library row
 * (`upload` or `drive`) read into passages exactly as the reading jobs do it (indexDocument with the
 * row's id, then the row marked ready), and the scope calls of a conversation.
 */
import { type Conversation, chatEndpoints } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { createLibraryRepository, upsertLibraryFile } from '#server/documents/library/library-repository.ts'
import type { Section } from '#server/documents/reading/chunker.ts'
import { call } from './chat-helpers.ts'

export type LibraryDocumentInput = {
  name: string
  /** One string: a text file; several: a PDF's pages. */
  text: string | string[]
  source?: 'upload' | 'drive'
}

/** A ready library document of `userId`'s; answers its library id (the one GET /documents lists). */
export async function addLibraryDocument(app: App, userId: string, input: LibraryDocumentInput) {
  const source = input.source ?? 'upload'
  const pdf = Array.isArray(input.text)
  const file = {
    userId,
    source,
    externalId: `${input.name}-${crypto.randomUUID()}`,
    name: input.name,
    mimeType: pdf ? 'application/pdf' : 'text/plain',
    webViewLink: null,
    version: null,
    modifiedTime: null,
    size: null,
  }
  const id = await upsertLibraryFile(app.db, file, 'queued')
  const sections: Section[] = pdf
    ? (input.text as string[]).map((text, i) => ({ page: i + 1, text }))
    : [{ page: null, text: input.text as string }]
  const { chunkCount } = await indexDocument(app.db, { ...file, id, link: null, sections })
  await createLibraryRepository(app.db).setStatus(id, 'ready', {
    pages: pdf ? sections.length : null,
    chunks: chunkCount,
  })
  return id
}

/** POST /chat/sessions/create with a scope; answers the raw response. */
export function createScoped(app: App, cookie: string, title: string, documentIds: string[]) {
  return call(app, chatEndpoints.createConversation, { cookie, body: { title, scope: { documentIds } } })
}

/** A conversation limited to `documentIds` (fails the test when refused). */
export async function createScopedOk(
  app: App,
  cookie: string,
  title: string,
  documentIds: string[],
): Promise<Conversation> {
  const response = await createScoped(app, cookie, title, documentIds)
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.createConversation.response.parse(response.json()).data
}

/** PATCH /chat/sessions/:id with `body` ({scope}, {title}, or both). */
export function updateConversation(app: App, cookie: string, conversationId: string, body: unknown) {
  return call(app, chatEndpoints.updateConversation, { cookie, params: { id: conversationId }, body })
}
