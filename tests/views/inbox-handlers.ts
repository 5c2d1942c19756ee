/**
 * The owner's inbox as the views meet it (issue 37): an in-memory fake of the publishing calls,
 * its bodies typed from contracts/publishing.ts. Two pages under All (the cursor "page-2"), one
 * conversation under Unanswered.
 */
import { HttpResponse, http } from 'msw'
import type { z } from 'zod'
import { type InboxConversationSchema, InboxQuerySchema, publishingEndpoints } from '#contracts/publishing.ts'
import { errorResponse, okResponse, urlOf } from './msw-server.ts'

type Conversation = z.infer<typeof InboxConversationSchema>

export const FIRST = '11111111-1111-4111-8111-111111111111'
export const SECOND = '22222222-2222-4222-8222-222222222222'

function conversation(id: string, fields: Partial<Conversation>): Conversation {
  return {
    _id: id,
    visitor: { id: 'k7f2', signed: false, name: null, email: null },
    firstQuestion: 'How many days off do I get?',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:01:00.000Z',
    messageCount: 2,
    unanswered: false,
    likes: 1,
    dislikes: 0,
    ...fields,
  }
}

export function inboxBackend() {
  let conversations = [
    conversation(FIRST, {}),
    conversation(SECOND, {
      visitor: { id: 'u-42', signed: true, name: 'Grace Hopper', email: null },
      firstQuestion: 'Can I carry days over?',
      unanswered: true,
      likes: 0,
      dislikes: 1,
    }),
  ]
  const calls = { queries: [] as string[], deleted: [] as string[] }
  const perDay = [
    { day: '2026-03-01', conversations: 2, tokens: 1500 },
    { day: '2026-03-02', conversations: 0, tokens: 0 },
  ]
  const topQuestions = { days7: [{ question: 'how many days off do i get', count: 3 }], days30: [] }
  const handlers = [
    http.get(urlOf(publishingEndpoints.inbox), ({ request }) => {
      const url = new URL(request.url)
      calls.queries.push(url.search)
      const query = InboxQuerySchema.safeParse(Object.fromEntries(url.searchParams))
      if (!query.success) return errorResponse(400, query.error.issues[0]?.message ?? 'Bad query')
      const { filter = 'all', cursor } = query.data
      const all = conversations.filter((c) => filter === 'all' || c.unanswered)
      const page = filter === 'all' ? (cursor === 'page-2' ? all.slice(1) : all.slice(0, 1)) : all
      const next = filter === 'all' && cursor === undefined && all.length > 1 ? 'page-2' : null
      return okResponse(publishingEndpoints.inbox, {
        success: true,
        data: { conversations: page, next, topQuestions, perDay },
      })
    }),
    http.get(urlOf(publishingEndpoints.inboxConversation), ({ params }) => {
      const found = conversations.find((c) => c._id === params.conversationId)
      if (!found) return errorResponse(404, 'Conversation not found')
      const messages = [
        {
          _id: 'm1',
          isUser: true,
          content: found.firstQuestion,
          createdAt: found.createdAt,
          feedback: null,
          sources: [],
        },
        {
          _id: 'm2',
          isUser: false,
          content: 'You get 25 days a year [1].',
          createdAt: found.updatedAt,
          feedback: 'dislike' as const,
          sources: [
            {
              citation: 1,
              documentName: 'Leave policy.pdf',
              page: 3,
              snippet: 'Staff get 25 days of leave.',
            },
          ],
        },
      ]
      return okResponse(publishingEndpoints.inboxConversation, {
        success: true,
        data: { conversation: found, messages },
      })
    }),
    http.delete(urlOf(publishingEndpoints.deleteInboxConversation), ({ params }) => {
      calls.deleted.push(String(params.conversationId))
      conversations = conversations.filter((c) => c._id !== params.conversationId)
      return HttpResponse.json({ success: true, data: null })
    }),
    http.delete(urlOf(publishingEndpoints.deleteInboxConversations), () => {
      calls.deleted.push('all')
      const deleted = conversations.length
      conversations = []
      return okResponse(publishingEndpoints.deleteInboxConversations, { success: true, data: { deleted } })
    }),
  ]
  return { handlers, calls }
}
