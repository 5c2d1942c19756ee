/**
 * Facade over the dashboard: which section is on screen (the route table's, for the address:
 * dashboard-screens.tsx) and starting a new chat. Moving is navigating: the sidebar and the header
 * are links, and opening a conversation goes to its address. Only choosing Chat starts a new chat
 * at once (product §2), so doing it from a new chat, where the address stays, clears too.
 */
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
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
    startNewChat() {
      chat.send({ type: 'chat.new' })
    },
  }
}
