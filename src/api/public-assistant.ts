/**
 * The visitor's calls (issue 37, contracts/publishing.ts `publicEndpoints`): one function per
 * call, the deps the public chat injects into machines/public-chat. It imports the JSON client
 * and the stream reader only, never the dashboard (D120): the public page's bundle is its own.
 */
import {
  type PublicAskRequest,
  type PublicAssistant,
  type PublicStreamEvent,
  PublicStreamEventSchema,
  publicEndpoints,
} from '#contracts/publishing.ts'
import { ApiError, createHttp, type HttpOptions } from './client.ts'
import { readEventStream } from './event-stream.ts'

export type PublicAnswer = Extract<PublicStreamEvent, { event: 'done' }>['data']
export type PublicConversation = { conversationId: string; messages: PublicAnswer['aiMessage'][] }
export type VisitorStream = { onToken: (text: string) => void; signal?: AbortSignal }

export function createPublicAssistantApi(publicId: string, options: HttpOptions = {}) {
  const http = createHttp(options)
  const params = { publicId }
  return {
    async getAssistant(): Promise<PublicAssistant> {
      return (await http(publicEndpoints.getPublicAssistant, { params })).data
    },
    /**
     * The visitor's current conversation: a signed visitor's by their token (on any device), an
     * anonymous one's by their cookie; null when they have none (404).
     */
    async getConversation(userToken: string | null = null): Promise<PublicConversation | null> {
      try {
        const response = userToken
          ? await http(publicEndpoints.getSignedConversation, { params, body: { userToken } })
          : await http(publicEndpoints.getVisitorConversation, { params })
        return response.data
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
    /** Streams the answer: tokens to `onToken`; resolves with `done`'s data, rejects with an ApiError. */
    async ask(body: PublicAskRequest, { onToken, signal }: VisitorStream): Promise<PublicAnswer> {
      let end: PublicStreamEvent | null = null
      await readEventStream(
        publicEndpoints.ask,
        { params, body },
        PublicStreamEventSchema,
        (event) => {
          if (event.event === 'token') onToken(event.data.text)
          else end = event
        },
        { ...options, signal },
      )
      const outcome = end as PublicStreamEvent | null
      if (outcome?.event === 'done') return outcome.data
      // The server's `error` event is a sentence written for the visitor.
      throw new ApiError(
        502,
        outcome?.event === 'error' ? outcome.data.message : 'The answer ended unexpectedly',
      )
    },
    /** A signed visitor's answers are theirs by their token (the server's rule), so it goes along. */
    async feedback(messageId: string, feedback: 'like' | 'dislike', userToken: string | null): Promise<void> {
      const body = userToken ? { feedback, userToken } : { feedback }
      await http(publicEndpoints.feedback, { params: { publicId, id: messageId }, body })
    },
  }
}

export type PublicAssistantApi = ReturnType<typeof createPublicAssistantApi>
