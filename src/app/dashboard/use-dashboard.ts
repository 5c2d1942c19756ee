/**
 * Facade over the dashboard: which section is on screen (the route table's, for the address:
 * dashboard-screens.tsx) and starting a new chat. Moving is navigating: the sidebar and the header
 * are links, and opening a conversation goes to its address. Only choosing Chat starts a new chat
 * at once (product §2), so doing it from a new chat, where the address stays, clears too.
 */
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
import type { DraftAssistant } from '#machines/chat/chat-types.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { useScreen } from './screen-match.ts'

export function useDashboard() {
  const chat = ChatActor.useActorRef()
  const section = useScreen()?.screen.section ?? null
  const newChat = ChatActor.useSelector((snapshot) => selectedConversationIdOf(snapshot) === null)
  return {
    /** The sidebar entry on screen ('chat', 'documents', …); null for an address that names none. */
    section,
    /**
     * A link to `target` is to the screen already shown: following it replaces the history entry
     * instead of adding one that Back would only walk through again.
     */
    isShown(target: string): boolean {
      return target === section && (target !== 'chat' || newChat)
    },
    /** "New chat": a new chat with no assistant (one chosen before is left). */
    startNewChat() {
      chat.send({ type: 'chat.new', assistant: null })
    },
    /** "New chat" menu's assistant (issue 36): a new chat with it. */
    startChatWith(assistant: DraftAssistant) {
      chat.send({ type: 'chat.new', assistant })
    },
  }
}
