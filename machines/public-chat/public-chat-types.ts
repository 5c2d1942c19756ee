/** The public chat's events, context and sentences (issue 37, D120): what its machine and views share. */
import type { Feedback } from '#contracts/chat.ts'
import type { PublicAssistant } from '#contracts/publishing.ts'
import type { VisitorMessage } from './public-chat-model.ts'

export const RATING_FAILED = 'Your feedback could not be saved. Please try again.'
export const NOT_AVAILABLE = 'This assistant is not available.'

export type PublicChatEvent =
  | { type: 'public.type'; text: string }
  /** Ask `content` (a starter question) or, without it, what is in the composer. */
  | { type: 'public.send'; content?: string }
  | { type: 'public.stop' }
  | { type: 'public.new' }
  | { type: 'public.rate'; messageId: string; feedback: Feedback }
  | { type: 'public.rated'; messageId: string }
  | { type: 'public.rateFailed'; messageId: string; previous: Feedback | null; error: unknown }
  /** The host site's signed token for its signed-in user (data-user-token, DocChat.identify). */
  | { type: 'public.identify'; token: string }
  | { type: 'public.challengeSolved'; payload: string }

export type PublicChatContext = {
  assistant: PublicAssistant | null
  /** The visitor's conversation; null until their first answer makes one (or after New conversation). */
  conversationId: string | null
  messages: VisitorMessage[]
  /** Why the assistant could not be shown (the server's sentence). */
  loadError: string | null
  /** A failure of the chat's own (feedback); the sender keeps the answer's. */
  notice: string | null
  userToken: string | null
  challenge: string | null
  /** The visitor has been answered (or had a conversation): no challenge is asked again. */
  challengePassed: boolean
  /** The sender's, kept from its snapshots: what is typed, whether an answer is on its way, why one failed. */
  draft: string
  sending: boolean
  answerNotice: string | null
  now: (() => Date) | undefined
}
