/**
 * Facade over the dashboard: which section is on screen (the dashboard machine, told by the
 * address: use-dashboard-route.ts) and how views move. Moving is navigating: the sidebar and the
 * header are links, and opening a conversation goes to its address. Only choosing Chat starts a
 * new chat at once (product §2), so doing it from a new chat, where the address stays, clears too.
 */
import { useLocation } from 'wouter'
import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { conversationPath, paths } from '#src/lib/paths.ts'
import { DashboardActor } from './dashboard-actor.ts'

export function useDashboard() {
  const chat = ChatActor.useActorRef()
  const [, navigate] = useLocation()
  const section = DashboardActor.useSelector((snapshot) => snapshot.value)
  const newChat = ChatActor.useSelector((snapshot) => snapshot.context.selectedConversationId === null)
  return {
    section,
    /**
     * A link to `target` is to the screen already shown: following it replaces the history entry
     * instead of adding one that Back would only walk through again.
     */
    isShown(target: DashboardSection): boolean {
      return target === section && (target !== 'chat' || newChat)
    },
    startNewChat() {
      chat.send({ type: 'chat.new' })
    },
    show(target: DashboardSection) {
      navigate(paths[target], { replace: target === section })
    },
    /** Loads the conversation's messages and switches to the chat view (product §2 History). */
    openConversation(conversationId: string) {
      navigate(conversationPath(conversationId))
    },
  }
}
