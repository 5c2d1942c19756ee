/**
 * Keeps the address bar and the open conversation together: `/dashboard/c/{id}` opens that
 * conversation (on a reload, or back and forward), and opening, starting or leaving a
 * conversation in the app moves the address. Each side follows only the other's changes, so
 * neither undoes the other.
 */
import { useEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { DashboardActor } from '#src/app/dashboard/dashboard-actor.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { conversationPath, paths } from '#src/lib/paths.ts'

const CONVERSATION_URL = /^\/dashboard\/c\/([^/]+)\/?$/

export function useConversationUrl() {
  const [location, navigate] = useLocation()
  const match = CONVERSATION_URL.exec(location)
  const urlId = match?.[1] ? decodeURIComponent(match[1]) : null
  const selected = ChatActor.useSelector((snapshot) => snapshot.context.selectedConversationId)
  const chat = ChatActor.useActorRef()
  const dashboard = DashboardActor.useActorRef()
  const seen = useRef<{ urlId: string | null; selected: string | null }>({ urlId: null, selected: null })

  useEffect(() => {
    const before = seen.current
    seen.current = { urlId, selected }
    if (urlId !== before.urlId) {
      // The address moved (typed, reloaded, back/forward): the app follows.
      if (urlId !== null && urlId !== selected) {
        chat.send({ type: 'chat.select', conversationId: urlId })
        dashboard.send({ type: 'dashboard.select', section: 'chat' })
      } else if (urlId === null && selected !== null) {
        chat.send({ type: 'chat.new' })
      }
      return
    }
    if (selected !== before.selected) {
      // The app opened, started or left a conversation: the address follows.
      if (selected !== null && selected !== urlId) navigate(conversationPath(selected))
      else if (selected === null && urlId !== null) navigate(paths.dashboard)
    }
  }, [urlId, selected, chat, dashboard, navigate])
}
