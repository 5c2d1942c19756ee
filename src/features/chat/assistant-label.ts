import type { ConversationAssistant } from '#contracts/chat.ts'

/** How a conversation's assistant is named in the chat header and History (issue 36). */
export function assistantLabel(assistant: ConversationAssistant): string {
  return `Assistant: ${assistant.name}${assistant.deleted ? ' (deleted)' : ''}`
}
