/**
 * The address is the dashboard's truth. `/dashboard/{section}` puts that section on screen,
 * `/dashboard/c/{id}` opens that conversation in Chat, and `/dashboard` or `/dashboard/chat` is a
 * new chat (product §2: choosing the chat section clears the conversation). Changing section or
 * conversation is navigating (a link, Back/Forward, a reload, a bookmark); the route tells the
 * dashboard and chat machines, one way. The moves the other way: when the chat itself starts
 * the conversation of a new chat, or closes the one on screen, the address is replaced to match;
 * when "Ask about this document" starts a new chat, the address goes to it (a push: Back returns).
 */
import { useEffect, useEffectEvent, useLayoutEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
import { DASHBOARD_SECTIONS, type DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { conversationPath, paths } from '#src/lib/paths.ts'
import { DashboardActor } from './dashboard-actor.ts'

/**
 * What an address under /dashboard asks for; `conversationId` only in the chat section,
 * `documentId` (the viewer, D72) only among the Documents.
 */
export type DashboardRoute = {
  section: DashboardSection
  conversationId: string | null
  documentId?: string | null
}

const CONVERSATION = /^\/dashboard\/c\/([^/]+)\/?$/
const DOCUMENT = /^\/dashboard\/documents\/([^/]+)\/?$/
const SECTION = /^\/dashboard(?:\/([^/]+))?\/?$/

/** The route an address names, or null for an address under /dashboard that names nothing. */
export function dashboardRouteOf(path: string): DashboardRoute | null {
  const documentId = DOCUMENT.exec(path)?.[1]
  if (documentId !== undefined) {
    try {
      return { section: 'docs', conversationId: null, documentId: decodeURIComponent(documentId) }
    } catch {
      return null
    }
  }
  const id = CONVERSATION.exec(path)?.[1]
  if (id !== undefined) {
    try {
      return { section: 'chat', conversationId: decodeURIComponent(id) }
    } catch {
      return null
    }
  }
  const match = SECTION.exec(path)
  if (!match) return null
  const section = match[1] ?? 'chat'
  return DASHBOARD_SECTIONS.some((known) => known === section)
    ? { section: section as DashboardSection, conversationId: null }
    : null
}

export function useDashboardRoute(): DashboardRoute | null {
  const [location] = useLocation()
  return dashboardRouteOf(location)
}

/**
 * The route, told to the machines. A layout effect: the section the address names is on screen
 * before the browser paints, so Back never shows the previous section for a frame.
 */
export function useRouteTellsMachines({ section, conversationId }: DashboardRoute) {
  const dashboard = DashboardActor.useActorRef()
  const chat = ChatActor.useActorRef()
  useLayoutEffect(() => {
    dashboard.send({ type: 'dashboard.select', section })
    if (section !== 'chat') return
    if (conversationId === null) chat.send({ type: 'chat.new' })
    // Already open: the conversation this chat just started, or the same address seen again.
    else if (selectedConversationIdOf(chat.getSnapshot()) !== conversationId)
      chat.send({ type: 'chat.select', conversationId })
  }, [dashboard, chat, section, conversationId])
}

/**
 * The first message of a new chat starts a conversation: the address becomes that conversation's
 * (a replace: the new chat and its conversation are one screen, so Back leaves it rather than
 * showing it empty). A conversation closed by the chat (created for a message that failed, or
 * deleted while open) gives way to the new chat it came from.
 */
export function useAddressFollowsChat(route: DashboardRoute | null) {
  const chat = ChatActor.useActorRef()
  const [location, navigate] = useLocation()
  const startedFrom = useRef<{ conversationId: string; path: string } | null>(null)

  const started = useEffectEvent((conversationId: string) => {
    if (route?.section !== 'chat' || route.conversationId !== null) return
    startedFrom.current = { conversationId, path: location }
    navigate(conversationPath(conversationId), { replace: true })
  })
  const closed = useEffectEvent((conversationId: string) => {
    if (route?.conversationId !== conversationId) return
    const from = startedFrom.current
    navigate(from?.conversationId === conversationId ? from.path : paths.chat, { replace: true })
  })
  const askingAbout = useEffectEvent(() => {
    if (route?.section === 'chat' && route.conversationId === null) return
    navigate(paths.chat)
  })

  useEffect(() => {
    const subscriptions = [
      chat.on('chat.conversationStarted', (event) => started(event.conversationId)),
      chat.on('chat.conversationClosed', (event) => closed(event.conversationId)),
      chat.on('chat.askingAbout', () => askingAbout()),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }, [chat])
}
