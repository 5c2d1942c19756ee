/**
 * Type-level tests of the contracts, run by `npm run typecheck` (tsc covers tests/): every
 * `@ts-expect-error` line must stay an error, so if the endpoint typing loosened (a body typed
 * `unknown`, path parameters no longer read from the path) tsc reports the now-unused directive.
 */
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import { authEndpoints, type User } from '#contracts/auth.ts'
import { chatEndpoints, type Message, type SendMessageResponse } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { endpoint, type PathParamNames } from '#contracts/endpoint.ts'
import type { StreamCall } from '#src/api/chat-stream.ts'
import type { Http } from '#src/api/client.ts'

declare const http: Http
declare const stream: StreamCall
const handlers = { onToken: (_text: string) => undefined }

export async function clientCalls() {
  // The answer's type comes from the endpoint.
  expectTypeOf(await http(authEndpoints.me)).toEqualTypeOf<{ success: true; data: User }>()
  expectTypeOf(
    (await http(chatEndpoints.setFeedback, { params: { id: 'm' }, body: { feedback: 'like' } })).data,
  ).toEqualTypeOf<Message>()

  // Path parameters: exactly the path's `:name` segments.
  // @ts-expect-error a call with a `:id` in its path needs params
  await http(chatEndpoints.listMessages)
  // @ts-expect-error `:id` is missing
  await http(chatEndpoints.listMessages, { params: {} })
  // @ts-expect-error `sessionId` is not in the path
  await http(chatEndpoints.listMessages, { params: { id: 's', sessionId: 's' } })
  // @ts-expect-error the path has no parameters
  await http(documentEndpoints.listDocuments, { params: { id: 'd' } })

  // Bodies: the request schema's input, and none where the call takes none.
  // @ts-expect-error the body is required
  await http(authEndpoints.login)
  // @ts-expect-error `password` is missing
  await http(authEndpoints.login, { body: { email: 'a@example.com' } })
  // @ts-expect-error feedback is 'like' or 'dislike'
  await http(chatEndpoints.setFeedback, { params: { id: 'm' }, body: { feedback: 'love' } })
  // @ts-expect-error logout sends no body
  await http(authEndpoints.logout, { body: { all: true } })
  await http(authEndpoints.logout)

  // Query strings.
  // @ts-expect-error list-files needs `email` in its query
  await http(driveEndpoints.listFiles, {})
  // @ts-expect-error `q` is the search's query field
  await http(chatEndpoints.searchConversations, { query: { text: 'x' } })
  await http(driveEndpoints.getFile, { params: { fileId: 'f' }, query: { email: 'a@example.com' } })

  // The JSON client takes JSON calls only; streams have their own.
  const send = {
    params: { id: 's' },
    body: { content: 'x', isUser: true as const, messageType: 'text' as const },
  }
  // @ts-expect-error a streamed call is not JSON
  await http(chatEndpoints.streamMessage, send)
  // @ts-expect-error an upload is multipart
  await http(documentEndpoints.uploadFile, { params: { id: 's' } })
  expectTypeOf(
    await stream(chatEndpoints.regenerateMessage, { params: { id: 's', messageId: 'm' } }, handlers),
  ).toEqualTypeOf<SendMessageResponse>()
  // @ts-expect-error `messageId` is missing
  await stream(chatEndpoints.regenerateMessage, { params: { id: 's' } }, handlers)
  // @ts-expect-error the JSON send is not a stream
  await stream(chatEndpoints.sendMessage, send, handlers)
}

export function declarations() {
  expectTypeOf<PathParamNames<'/a/:id/b/:messageId/c'>>().toEqualTypeOf<'id' | 'messageId'>()
  expectTypeOf<PathParamNames<'/a/b'>>().toEqualTypeOf<never>()
  expectTypeOf(chatEndpoints.deleteConversation.path).toEqualTypeOf<'/api/v1/chat/sessions/:id/delete'>()

  // @ts-expect-error a path with `:id` needs a params schema
  endpoint({ method: 'GET', path: '/things/:id', data: z.null() })
  // @ts-expect-error the params schema must give `id`, the path's parameter
  endpoint({ method: 'GET', path: '/things/:id', params: z.object({ thing: z.string() }), data: z.null() })
  // @ts-expect-error a path without parameters takes no params schema
  endpoint({ method: 'GET', path: '/things', params: z.object({ id: z.string() }), data: z.null() })
  // @ts-expect-error an endpoint says what it answers
  endpoint({ method: 'GET', path: '/things' })
}
