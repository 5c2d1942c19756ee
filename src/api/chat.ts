/** One client function per chat endpoint; the deps injected into the chat machine. */
import {
  type ChatSession,
  chatEndpoints,
  type Feedback,
  type Message,
  type SendMessageResponse,
} from '#contracts/chat.ts'
import type { Http } from './client.ts'

export type ChatApi = ReturnType<typeof createChatApi>

export function createChatApi(http: Http) {
  return {
    async createSession(title: string): Promise<ChatSession> {
      return (await http(chatEndpoints.createSession, { body: { title } })).data
    },
    async listSessions(): Promise<ChatSession[]> {
      return (await http(chatEndpoints.listSessions)).data
    },
    async deleteSession(id: string): Promise<void> {
      await http(chatEndpoints.deleteSession, { params: { id } })
    },
    async listMessages(id: string): Promise<Message[]> {
      return (await http(chatEndpoints.listMessages, { params: { id } })).data
    },
    async sendMessage(id: string, content: string): Promise<SendMessageResponse> {
      const body = { content, isUser: true as const, messageType: 'text' as const }
      return (await http(chatEndpoints.sendMessage, { params: { id }, body })).data
    },
    async setFeedback(messageId: string, feedback: Feedback): Promise<Message> {
      return (await http(chatEndpoints.setFeedback, { params: { id: messageId }, body: { feedback } })).data
    },
  }
}
