/**
 * Pure rules for the message on its way (product §4 send steps 1–5) and the answer written
 * again: what the sender keeps about them. What the screen shows of them is the open
 * conversation's (open-conversation-model.ts).
 */
import { MESSAGE_MAX_LENGTH, type Message, type SendMessageResponse } from '#contracts/chat.ts'
import { shownMessage } from './chat-model.ts'
import type { MessageItem, Outgoing, SenderContext, StoppedSend } from './chat-types.ts'

/** product §5: blank or whitespace-only text is not sent; nor is text the server would refuse. */
export function isSendableText(text: string): boolean {
  const content = text.trim()
  return content !== '' && content.length <= MESSAGE_MAX_LENGTH
}

export function outgoingOf(context: SenderContext): Outgoing {
  if (!context.outgoing) throw new Error('chat: no message is being sent')
  return context.outgoing
}

export function outgoingTarget(context: SenderContext): { conversationId: string; content: string } {
  const { conversationId, content } = outgoingOf(context)
  if (conversationId === null) throw new Error('chat: the message has no conversation yet')
  return { conversationId, content }
}

/**
 * product §4 step 1: remembered as the message on its way, under a temporary id, and shown at
 * once (`shown`); the composer empties and an old notice goes.
 */
export function startSending(
  context: SenderContext,
  send: {
    content: string
    conversationId: string | null
    documentIds: string[]
    assistantId?: string | null
  },
): { change: Partial<SenderContext>; shown: MessageItem } {
  const tempId = `temp-${context.sentCount + 1}`
  const content = send.content.trim()
  return {
    change: {
      sentCount: context.sentCount + 1,
      outgoing: {
        tempId,
        content,
        conversationId: send.conversationId,
        createdConversation: false,
        answer: '',
        sources: [],
        documentIds: send.documentIds,
        assistantId: send.assistantId ?? null,
      },
      draft: '',
      notice: null,
    },
    shown: shownMessage(tempId, 'user', content, context.now().toISOString()),
  }
}

/** The conversation created for the message on its way, if it was; null otherwise. */
export function createdConversationOf(context: SenderContext): string | null {
  const { outgoing } = context
  return outgoing?.createdConversation && outgoing.conversationId !== null ? outgoing.conversationId : null
}

/** A send stopped with an answer so far, to be found once the server has stored it (null: no conversation). */
export function stoppedSendOf(outgoing: Outgoing): StoppedSend | null {
  return outgoing.conversationId
    ? { conversationId: outgoing.conversationId, tempId: outgoing.tempId, answer: outgoing.answer, checks: 0 }
    : null
}

/**
 * The stored exchange of a stopped send among its conversation's messages, or null while the
 * server has not stored it yet: the last two, a question and then a stopped answer that begins
 * with what had arrived here.
 */
export function storedStop(stop: StoppedSend | null, messages: Message[]): SendMessageResponse | null {
  const [question, answer] = messages.slice(-2)
  if (!stop || !question?.isUser || !answer || answer.isUser || !answer.stopped) return null
  if (!answer.content.startsWith(stop.answer.trim())) return null
  return { userMessage: question, aiMessage: answer }
}
