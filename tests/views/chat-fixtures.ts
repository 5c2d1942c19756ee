/**
 * The chat API as the chat, History and sidebar views meet it: an in-memory fake whose handlers
 * parse each request with its contract schema (a malformed call gets 400, as from the real
 * server) and answer bodies typed from contracts/chat.ts. Replies can be held to see what a
 * person sees meanwhile; single calls can be made to fail with `server.use(fail(...))`.
 */

import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect } from 'vitest'
import {
  type Conversation,
  CreateConversationRequestSchema,
  chatEndpoints,
  DislikeReasonRequestSchema,
  FeedbackRequestSchema,
  type Message,
  RenameConversationRequestSchema,
  type Scope,
  SendMessageRequestSchema,
  type SendMessageResponse,
  ShowVersionRequestSchema,
  type Source,
} from '#contracts/chat.ts'
import { documentEndpoints, type LibraryDocument } from '#contracts/documents.ts'
import { libraryDocument } from '#machines/documents/documents-fixtures.ts'
import { ada, errorResponse, okResponse, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

/** An ISO time `ms` before now: the views compare with the real clock. */
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
export { DAY, HOUR }

export function chatConversation(id: string, fields: Partial<Conversation> = {}): Conversation {
  const updatedAt = fields.updatedAt ?? ago(2 * HOUR)
  return {
    _id: id,
    title: `Conversation ${id}`,
    createdAt: updatedAt,
    updatedAt,
    messageCount: 2,
    lastMessage: `Last words of ${id}`,
    ...fields,
  }
}

export function chatMessage(
  id: string,
  isUser: boolean,
  content: string,
  fields: Partial<Message> = {},
): Message {
  return {
    _id: id,
    isUser,
    content,
    createdAt: ago(HOUR),
    messageType: 'text',
    feedback: null,
    sources: [],
    ...fields,
  }
}

export function source(fields: Partial<Source> = {}): Source {
  return {
    documentId: 'doc-1',
    documentName: 'Quarterly report.pdf',
    chunkId: 'chunk-1',
    page: 3,
    link: 'https://drive.example/file/d/doc-1/view',
    ...fields,
  }
}

export function libraryFile(fields: Partial<LibraryDocument> = {}): LibraryDocument {
  return libraryDocument('report.pdf', {
    id: 'file-1',
    pages: 2,
    chunks: 4,
    updatedAt: new Date().toISOString(),
    ...fields,
  })
}

type Seed = {
  conversations?: Conversation[]
  messages?: Record<string, Message[]>
  files?: Record<string, LibraryDocument[]>
  /** The library: what the `#` picker lists and what a scope may name (D70). */
  documents?: LibraryDocument[]
}

/** The answer the fake assistant gives, with the sources it cites. */
export const answerTo = (content: string) => `You asked: ${content}`

export function chatBackend(seed: Seed = {}) {
  let conversations = [...(seed.conversations ?? [])]
  const messages = new Map(Object.entries(seed.messages ?? {}))
  const files = new Map(Object.entries(seed.files ?? {}))
  const calls = {
    /** Every create, upload and send, in the order they reached the server. */
    order: [] as string[],
    uploaded: [] as string[],
    listConversations: 0,
    created: [] as string[],
    sent: [] as { conversationId: string; content: string }[],
    deleted: [] as string[],
    feedback: [] as { messageId: string; feedback: string }[],
    shownVersions: [] as { messageId: string; version: number }[],
    reasons: [] as { messageId: string; reason?: string | null; note?: string }[],
    /** The scope each create and each PATCH asked for (null: the whole library). */
    scopes: [] as (string[] | null)[],
  }
  const documents = seed.documents ?? []
  /** A scope as the server answers it; a 400 naming the first id that is not in the library. */
  const scopeOf = (documentIds: string[]): Scope | string => {
    const missing = documentIds.find((id) => !documents.some((d) => d.id === id))
    if (missing) return `Document ${missing} is not in your library.`
    const named = documentIds.map((id) => ({ id, name: documents.find((d) => d.id === id)?.name ?? '' }))
    return { documentIds, documents: named }
  }
  /** Every version of an answer written more than once (D93), 1 first, as the server keeps them. */
  const versions = new Map<string, Message[]>()
  const findMessage = (messageId: string) => [...messages.values()].flat().find((m) => m._id === messageId)
  /** Puts `next` in the place of the stored message with its id. */
  const replaceMessage = (next: Message) => {
    for (const [id, list] of messages)
      messages.set(
        id,
        list.map((m) => (m._id === next._id ? next : m)),
      )
  }
  let replyGate: Promise<void> | null = null
  let uploadName = 'report.pdf'
  let uploadFailure: { status: number; message: string } | null = null
  let nextId = 1
  const newId = (prefix: string) => `${prefix}-${nextId++}`

  async function answer(conversationId: string, content: string): Promise<SendMessageResponse> {
    const now = new Date().toISOString()
    const userMessage = chatMessage(newId('msg'), true, content, { createdAt: now })
    const aiMessage = chatMessage(newId('msg'), false, answerTo(content), {
      createdAt: now,
      sources: [source()],
    })
    messages.set(conversationId, [...(messages.get(conversationId) ?? []), userMessage, aiMessage])
    return { userMessage, aiMessage }
  }

  const handlers = [
    http.get(urlOf(chatEndpoints.listConversations), () => {
      calls.listConversations += 1
      return okResponse(chatEndpoints.listConversations, { success: true, data: conversations })
    }),
    http.post(urlOf(chatEndpoints.createConversation), async ({ request }) => {
      const body = CreateConversationRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad conversation request')
      calls.created.push(body.data.title)
      calls.order.push('create')
      const scope = body.data.scope ? scopeOf(body.data.scope.documentIds) : null
      if (body.data.scope) calls.scopes.push(body.data.scope.documentIds)
      if (typeof scope === 'string') return errorResponse(400, scope)
      const created = chatConversation(newId('conversation'), {
        title: body.data.title,
        updatedAt: new Date().toISOString(),
        messageCount: 0,
        lastMessage: '',
        scope,
      })
      conversations = [created, ...conversations]
      return okResponse(chatEndpoints.createConversation, { success: true, data: created })
    }),
    http.get(urlOf(chatEndpoints.listMessages), ({ params }) => {
      const id = String(params.id)
      // As the server: a conversation of this person with nothing said yet has no messages; an unknown one is a 404.
      const list = messages.get(id) ?? (conversations.some((c) => c._id === id) ? [] : undefined)
      if (!list) return errorResponse(404, 'Conversation not found')
      return okResponse(chatEndpoints.listMessages, { success: true, data: list })
    }),
    http.post(urlOf(chatEndpoints.sendMessage), async ({ request, params }) => {
      const body = SendMessageRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad message')
      const data = await answer(String(params.id), body.data.content)
      return okResponse(chatEndpoints.sendMessage, { success: true, data })
    }),
    // The SPA's send: the same answer, streamed word by word as the server does.
    http.post(urlOf(chatEndpoints.streamMessage), async ({ request, params }) => {
      const body = SendMessageRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad message')
      const conversationId = String(params.id)
      calls.sent.push({ conversationId, content: body.data.content })
      calls.order.push('send')
      if (replyGate) await replyGate
      return eventStream(await answer(conversationId, body.data.content))
    }),
    http.get(urlOf(documentEndpoints.listConversationFiles), ({ params }) =>
      okResponse(documentEndpoints.listConversationFiles, {
        success: true,
        data: files.get(String(params.id)) ?? [],
      }),
    ),
    // The file's bytes cannot be read back here (jsdom's File in Node's fetch): the test names it.
    http.post(urlOf(documentEndpoints.uploadFile), ({ params }) => {
      const conversationId = String(params.id)
      calls.uploaded.push(conversationId)
      calls.order.push('upload')
      if (uploadFailure) return errorResponse(uploadFailure.status, uploadFailure.message)
      const document = libraryFile({ id: newId('file'), name: uploadName })
      files.set(conversationId, [...(files.get(conversationId) ?? []), document])
      return okResponse(documentEndpoints.uploadFile, { success: true, data: document }, 201)
    }),
    http.patch(urlOf(chatEndpoints.updateConversation), async ({ request, params }) => {
      const body = RenameConversationRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad title')
      const found = conversations.find((s) => s._id === String(params.id))
      if (!found) return errorResponse(404, 'Conversation not found')
      if (body.data.title !== undefined) found.title = body.data.title
      if (body.data.scope !== undefined) {
        calls.scopes.push(body.data.scope?.documentIds ?? null)
        const scope = body.data.scope ? scopeOf(body.data.scope.documentIds) : null
        if (typeof scope === 'string') return errorResponse(400, scope)
        found.scope = scope
      }
      return okResponse(chatEndpoints.updateConversation, { success: true, data: found })
    }),
    http.get(urlOf(chatEndpoints.searchConversations), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q')?.toLowerCase() ?? ''
      const hits = conversations
        .filter((s) => s.title.toLowerCase().includes(q) || s.lastMessage.toLowerCase().includes(q))
        .map((conversation) => ({ session: conversation, snippet: conversation.lastMessage }))
      return okResponse(chatEndpoints.searchConversations, { success: true, data: hits })
    }),
    http.delete(urlOf(chatEndpoints.deleteConversation), ({ params }) => {
      const id = String(params.id)
      calls.deleted.push(id)
      conversations = conversations.filter((s) => s._id !== id)
      return okResponse(chatEndpoints.deleteConversation, { success: true, data: null })
    }),
    // Regenerate: the next version of the last answer, "Version N: …", with a source of its own.
    http.post(urlOf(chatEndpoints.regenerateMessage), async ({ params }) => {
      const list = messages.get(String(params.id)) ?? []
      const [question, answer] = list.slice(-2)
      if (!question || !answer || answer._id !== String(params.messageId)) {
        return errorResponse(400, 'Only the last answer of a conversation can be written again.')
      }
      if (replyGate) await replyGate
      const kept = versions.get(answer._id) ?? [{ ...answer, version: 1, versionCount: 1 }]
      const n = kept.length + 1
      const next: Message = {
        ...answer,
        content: `Version ${n}: ${answerTo(question.content)}`,
        sources: [source({ chunkId: `chunk-v${n}`, documentName: `Source of version ${n}.pdf` })],
        feedback: null,
        feedbackReason: null,
        feedbackNote: null,
        version: n,
        versionCount: n,
      }
      versions.set(answer._id, [...kept.map((v) => ({ ...v, versionCount: n })), next])
      replaceMessage(next)
      return eventStream({ userMessage: question, aiMessage: next })
    }),
    http.patch(urlOf(chatEndpoints.showAnswerVersion), async ({ request, params }) => {
      const body = ShowVersionRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad version')
      const messageId = String(params.id)
      const kept = versions.get(messageId) ?? []
      // The version shown until now keeps its feedback, as the server does.
      const current = findMessage(messageId)
      if (current?.version) kept[current.version - 1] = current
      const shown = kept[body.data.version - 1]
      if (!shown) return errorResponse(404, 'Message not found')
      calls.shownVersions.push({ messageId, version: body.data.version })
      replaceMessage(shown)
      return okResponse(chatEndpoints.showAnswerVersion, { success: true, data: shown })
    }),
    http.patch(urlOf(chatEndpoints.explainDislike), async ({ request, params }) => {
      const body = DislikeReasonRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad reason')
      const messageId = String(params.id)
      const stored = findMessage(messageId)
      if (!stored) return errorResponse(404, 'Message not found')
      if (stored.feedback !== 'dislike') return errorResponse(400, 'Dislike it first')
      calls.reasons.push({ messageId, ...body.data })
      return okResponse(chatEndpoints.explainDislike, {
        success: true,
        data: { ...stored, feedbackReason: body.data.reason ?? null, feedbackNote: body.data.note ?? null },
      })
    }),
    http.get(urlOf(documentEndpoints.listDocuments), () =>
      okResponse(documentEndpoints.listDocuments, {
        success: true,
        data: {
          documents,
          progress: { running: false, done: documents.length, total: documents.length },
          removed: [],
        },
      }),
    ),
    http.patch(urlOf(chatEndpoints.setFeedback), async ({ request, params }) => {
      const body = FeedbackRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad feedback')
      const messageId = String(params.id)
      calls.feedback.push({ messageId, feedback: body.data.feedback })
      const stored = findMessage(messageId)
      if (!stored) return errorResponse(404, 'Message not found')
      stored.feedback = body.data.feedback
      return okResponse(chatEndpoints.setFeedback, { success: true, data: stored })
    }),
  ]

  return {
    handlers,
    calls,
    /** The name the next uploads are stored under. */
    uploadsAs(name: string) {
      uploadName = name
    },
    /** Uploads are refused with this status and sentence (null: accepted again). */
    failUploads(failure: { status: number; message: string } | null) {
      uploadFailure = failure
    },
    /** Replies wait until the returned release() is called. */
    holdReplies() {
      const { promise, resolve } = Promise.withResolvers<void>()
      replyGate = promise
      return () => {
        replyGate = null
        resolve()
      }
    },
  }
}

/**
 * `text/event-stream` as the server writes it: the passages the answer may cite, its words, the
 * sources it cited, then done.
 */
export function eventStream(reply: SendMessageResponse): Response {
  const words = reply.aiMessage.content.match(/\s*\S+\s*/g) ?? []
  const events = [
    ['sources', { sources: reply.aiMessage.sources }] as const,
    ...words.map((text) => ['token', { text }] as const),
    ['sources', { sources: reply.aiMessage.sources }] as const,
    ['done', reply] as const,
  ]
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('')
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } })
}

const exact = (text: string) => text

/** Signs in, opens the dashboard (on Chat, or at `path`) with this backend, and finds what the tests use. */
export async function openChat(backend: ReturnType<typeof chatBackend>, path = '/dashboard') {
  server.use(signedIn(), ...backend.handlers)
  const app = renderApp(path)
  // The dashboard chunk loads lazily: the first load in a file imports its on-demand modules, which
  // has taken more than 5 s on a busy two-core machine (the test's own limit is 15 s).
  await screen.findByText(ada.email, undefined, { timeout: 12_000 })
  // Let the conversation list arrive: a request still in flight when a test ends would be answered
  // by the next test's handlers.
  await waitFor(() => expect(backend.calls.listConversations).toBeGreaterThan(0))
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  return {
    ...app,
    sidebar,
    main: screen.getByRole('main'),
    /** Finds text exactly as written, line breaks included (the default matcher folds them). */
    findExact: (text: string) => within(screen.getByRole('main')).findByText(text, { normalizer: exact }),
    input: () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement,
    goTo: (section: string) => app.user.click(within(sidebar).getByRole('link', { name: section })),
  }
}
