/**
 * The public chat's pure rules (issue 37): what a visitor's screen keeps of a conversation, the
 * visitor's wire shapes turned into the chat's (the sender takes and reports the chat's) and back,
 * and the sentence a failed answer shows.
 */
import type { Message, SendMessageResponse, Source } from '#contracts/chat.ts'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import type { PublicAssistant, PublicMessage } from '#contracts/publishing.ts'
import { answerIdOf } from '#machines/chat/chat-model.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { messageOf, statusOf } from '#machines/shared/effects.ts'

/** A cited passage as the visitor sees it: a snippet, and the document's name unless hidden (null). */
export type VisitorSource = {
  citation: number
  documentName: string | null
  page: number | null
  snippet: string
}

export type VisitorMessage = {
  id: string
  sender: 'user' | 'bot'
  content: string
  feedback: 'like' | 'dislike' | null
  sources: VisitorSource[]
  /** Still being written (it grows token by token). */
  streaming: boolean
  /** Stopped while it was written: it holds what had arrived. */
  stopped: boolean
  /** Its citations' checks (D135), as the stored answer carries them; null: none to show yet. */
  checks: CitationCheck[] | null
}

export type PublicAnswer = { conversationId: string; userMessage: PublicMessage; aiMessage: PublicMessage }
export type VisitorConversation = { conversationId: string; messages: PublicMessage[] }

export const UNREACHABLE = 'The assistant could not be reached. Check your connection and try again.'
export const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again in a moment.'

/**
 * What a visitor reads when an answer fails: the server's own sentence for anything it refused
 * (a 4xx: the owner's busy sentence on 429, a question too long, a token refused) or wrote for the
 * visitor (an `error` event, 502); ours when it could not be reached or failed inside.
 */
export function visitorNoticeOf(error: unknown): string {
  const status = statusOf(error)
  if (status === undefined || status === 0) return UNREACHABLE
  const said = (status >= 400 && status < 500) || status === 502 || status === 503
  return (said && messageOf(error)) || SOMETHING_WENT_WRONG
}

/** The visitor's message in the chat's shape: a hidden name travels as '' (a document always has one). */
export function toChatMessage(message: PublicMessage): Message {
  return {
    _id: message._id,
    isUser: message.isUser,
    content: message.content,
    createdAt: message.createdAt,
    messageType: 'text',
    feedback: message.feedback,
    sources: message.sources.map(
      (source): Source => ({
        documentId: '',
        documentName: source.documentName ?? '',
        chunkId: `citation-${source.citation}`,
        page: source.page,
        link: null,
        citation: source.citation,
        quote: source.snippet,
      }),
    ),
    ...(message.checks === undefined ? {} : { checks: message.checks }),
  }
}

export function toChatReply(answer: PublicAnswer): SendMessageResponse {
  return { userMessage: toChatMessage(answer.userMessage), aiMessage: toChatMessage(answer.aiMessage) }
}

export function visitorMessageOf(message: Message): VisitorMessage {
  return {
    id: message._id,
    sender: message.isUser ? 'user' : 'bot',
    content: message.content,
    feedback: message.feedback,
    sources: message.sources.map((source) => ({
      citation: source.citation ?? 0,
      documentName: source.documentName === '' ? null : source.documentName,
      page: source.page,
      snippet: source.quote ?? '',
    })),
    streaming: false,
    stopped: message.stopped ?? false,
    checks: message.checks ?? null,
  }
}

export function visitorMessagesOf(messages: PublicMessage[]): VisitorMessage[] {
  return messages.map((message) => visitorMessageOf(toChatMessage(message)))
}

/* ---------- the exchange on its way, as the sender reports it ---------- */

export function shown(messages: VisitorMessage[], message: MessageItem): VisitorMessage[] {
  const { id, sender, content } = message
  const item = {
    id,
    sender,
    content,
    feedback: null,
    sources: [],
    streaming: false,
    stopped: false,
    checks: null,
  }
  return [...messages, item]
}

export function grew(messages: VisitorMessage[], tempId: string, answer: string): VisitorMessage[] {
  const id = answerIdOf(tempId)
  if (!messages.some((m) => m.id === id)) {
    const bubble: VisitorMessage = {
      id,
      sender: 'bot',
      content: answer,
      feedback: null,
      sources: [],
      streaming: true,
      stopped: false,
      checks: null,
    }
    return [...messages, bubble]
  }
  return messages.map((m) => (m.id === id ? { ...m, content: answer } : m))
}

/** The stored question and answer take the temporary ones' places (or are added, if none is left). */
export function replied(
  messages: VisitorMessage[],
  tempId: string,
  reply: SendMessageResponse,
): VisitorMessage[] {
  const rest = messages.filter((m) => m.id !== tempId && m.id !== answerIdOf(tempId))
  const at = messages.findIndex((m) => m.id === tempId)
  const stored = [visitorMessageOf(reply.userMessage), visitorMessageOf(reply.aiMessage)]
  return at < 0 ? [...rest, ...stored] : [...rest.slice(0, at), ...stored, ...rest.slice(at)]
}

export function dropped(messages: VisitorMessage[], tempId: string): VisitorMessage[] {
  return messages.filter((m) => m.id !== tempId && m.id !== answerIdOf(tempId))
}

export function stopped(messages: VisitorMessage[], tempId: string): VisitorMessage[] {
  const id = answerIdOf(tempId)
  return messages.map((m) => (m.id === id ? { ...m, streaming: false, stopped: true } : m))
}

export function rated(
  messages: VisitorMessage[],
  messageId: string,
  feedback: VisitorMessage['feedback'],
): VisitorMessage[] {
  return messages.map((m) => (m.id === messageId ? { ...m, feedback } : m))
}

/** Only a stored answer (not one on its way, nor a question) can be rated. */
export function isRatable(message: VisitorMessage | undefined): boolean {
  return message?.sender === 'bot' && !message.streaming && !message.id.startsWith('temp-')
}

/** The first question needs a solved challenge when the owner asks for one and none was passed yet. */
export function needsChallenge(assistant: PublicAssistant | null, passed: boolean): boolean {
  return assistant?.requireChallenge === true && !passed
}
