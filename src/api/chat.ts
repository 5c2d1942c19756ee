/** One client function per chat endpoint; the deps injected into the chat machine. */
import {
  type Conversation,
  chatEndpoints,
  type DislikeReasonRequest,
  type Feedback,
  type Message,
  type SearchHit,
  type SendMessageResponse,
} from '#contracts/chat.ts'
import type { StreamCall, StreamHandlers } from './chat-stream.ts'
import type { Http } from './client.ts'

export function createChatApi(http: Http, stream?: StreamCall) {
  const streaming = () => {
    if (!stream) throw new Error('chat: streamed calls need a stream client')
    return stream
  }
  return {
    /**
     * A new conversation, limited to the documents `documentIds` when given (D70), with the
     * assistant `assistantId` when given (issue 36).
     */
    async createConversation(
      title: string,
      documentIds?: readonly string[],
      assistantId?: string,
    ): Promise<Conversation> {
      const scoped = documentIds?.length ? { title, scope: { documentIds: [...documentIds] } } : { title }
      const body = assistantId ? { ...scoped, assistantId } : scoped
      return (await http(chatEndpoints.createConversation, { body })).data
    },
    async listConversations(): Promise<Conversation[]> {
      return (await http(chatEndpoints.listConversations)).data
    },
    async deleteConversation(id: string): Promise<void> {
      await http(chatEndpoints.deleteConversation, { params: { id } })
    },
    async listMessages(id: string): Promise<Message[]> {
      return (await http(chatEndpoints.listMessages, { params: { id } })).data
    },
    async sendMessage(id: string, content: string): Promise<SendMessageResponse> {
      const body = { content, isUser: true as const, messageType: 'text' as const }
      return (await http(chatEndpoints.sendMessage, { params: { id }, body })).data
    },
    /** The streamed send: tokens as they come, then what `sendMessage` returns. */
    async streamMessage(id: string, content: string, handlers: StreamHandlers): Promise<SendMessageResponse> {
      const body = { content, isUser: true as const, messageType: 'text' as const }
      return streaming()(chatEndpoints.streamMessage, { params: { id }, body }, handlers)
    },
    async regenerate(id: string, messageId: string, handlers: StreamHandlers): Promise<SendMessageResponse> {
      return streaming()(chatEndpoints.regenerateMessage, { params: { id, messageId } }, handlers)
    },
    async renameConversation(id: string, title: string): Promise<Conversation> {
      return (await http(chatEndpoints.updateConversation, { params: { id }, body: { title } })).data
    },
    /** What the conversation searches: these documents, or (null) the whole library. */
    async setScope(id: string, documentIds: readonly string[] | null): Promise<Conversation> {
      const scope = documentIds === null ? null : { documentIds: [...documentIds] }
      return (await http(chatEndpoints.updateConversation, { params: { id }, body: { scope } })).data
    },
    async searchConversations(q: string): Promise<SearchHit[]> {
      return (await http(chatEndpoints.searchConversations, { query: { q } })).data
    },
    async setFeedback(messageId: string, feedback: Feedback): Promise<Message> {
      return (await http(chatEndpoints.setFeedback, { params: { id: messageId }, body: { feedback } })).data
    },
    /** Shows another version of an answer; resolves with the answer as it now reads (D93). */
    async showVersion(messageId: string, version: number): Promise<Message> {
      return (await http(chatEndpoints.showAnswerVersion, { params: { id: messageId }, body: { version } }))
        .data
    },
    /** Why a disliked answer did not help (D93). */
    async explainDislike(messageId: string, why: DislikeReasonRequest): Promise<Message> {
      return (await http(chatEndpoints.explainDislike, { params: { id: messageId }, body: why })).data
    },
  }
}
