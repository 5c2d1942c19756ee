/**
 * Facade over the dashboard: which section is on screen, and choosing another. It is also where
 * the dashboard and chat actors meet (neither machine knows the other): choosing Chat starts a
 * new chat (SPEC §2), and opening a conversation selects it and shows Chat (SPEC §2 History).
 */
import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { DashboardActor } from './dashboard-actor.ts'

export function useDashboard() {
  const dashboard = DashboardActor.useActorRef()
  const chat = ChatActor.useActorRef()
  const section = DashboardActor.useSelector((snapshot) => snapshot.value)
  return {
    section,
    select(next: DashboardSection) {
      if (next === 'chat') chat.send({ type: 'chat.new' })
      dashboard.send({ type: 'dashboard.select', section: next })
    },
    openSettings() {
      dashboard.send({ type: 'dashboard.select', section: 'settings' })
    },
    /** Loads the conversation's messages and switches to the chat view. */
    openConversation(conversationId: string) {
      chat.send({ type: 'chat.select', conversationId })
      dashboard.send({ type: 'dashboard.select', section: 'chat' })
    },
  }
}
