/**
 * The dashboard's wiring (product §2, D106): the parent of the chat actor (systemId 'chat'), and
 * what used to be React effects between the address and the chat. The address is the dashboard's
 * truth: the app tells this actor each route it shows ('dashboard.routed'), and this actor tells
 * the chat, one way. The moves the other way: when the chat itself starts the conversation of a new
 * chat, or closes the one on screen, the address is replaced to match; when "Ask about this
 * document" starts a new chat, the address goes to it (a push: Back returns). Navigating is an
 * injected action (`navigate`): the app fills it from its router; this machine never imports one.
 */
import { assign, enqueueActions, fromCallback, type SnapshotFrom, setup } from 'xstate'
import { type ChatSnapshot, chatMachine } from '#machines/chat/chat-machine.ts'
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
import type { ChatEmitted, ChatEvent } from '#machines/chat/chat-types.ts'

/** What the address on screen shows, as far as the wiring cares. */
export type DashboardRoute = {
  /** The address itself, to come back to. */
  path: string
  /** The sidebar section it belongs to: 'chat' for a new chat and for a conversation. */
  section: string
  /** The conversation the address opens; null for a new chat and outside the chat. */
  conversationId: string | null
}

/** Where the dashboard sends the person: the app turns it into an address. */
export type Destination =
  | { to: 'conversation'; conversationId: string }
  | { to: 'newChat' }
  | { to: 'address'; path: string }

export type NavigateParams = Destination & { replace: boolean }

export type DashboardEvent = { type: 'dashboard.routed'; route: DashboardRoute } | ChatEmitted

export type DashboardContext = {
  route: DashboardRoute | null
  /** The new chat whose first message started this conversation, to go back to if it closes. */
  startedFrom: { conversationId: string; path: string } | null
}

export type DashboardDeps = {
  /** The chat, with its calls filled (provideChatMachine). */
  chat: typeof chatMachine
  navigate: (params: NavigateParams) => void
}

const CHAT_TELLS = ['chat.conversationStarted', 'chat.conversationClosed', 'chat.askingAbout'] as const

/** The chat's emitted events, sent on to the dashboard (its parent) as events of its own. */
const chatEvents = fromCallback<DashboardEvent>(({ system, sendBack }) => {
  const chat = system.get('chat')
  const subscriptions = CHAT_TELLS.map((type) => chat.on(type, (event: ChatEmitted) => sendBack(event)))
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
})

const isNewChat = (route: DashboardRoute | null) => route?.section === 'chat' && route.conversationId === null

export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent },
  actors: { chat: chatMachine, chatEvents },
  actions: {
    /** Injected: the app's router goes to the destination (replacing the history entry or not). */
    navigate: (_, _params: NavigateParams) => {},
    /**
     * A new section or conversation on screen is told to the chat: the chat section with no
     * conversation is a new chat (product §2); a conversation the chat has not open is opened.
     */
    tellChat: enqueueActions(({ context, system, enqueue }, route: DashboardRoute) => {
      const before = context.route
      if (before?.section === route.section && before.conversationId === route.conversationId) return
      if (route.section !== 'chat') return
      const chat = system.get('chat')
      if (route.conversationId === null) enqueue.sendTo(chat, { type: 'chat.new' })
      // Already open: the conversation this chat just started, or the same address seen again.
      else if (selectedConversationIdOf(chat.getSnapshot() as ChatSnapshot) !== route.conversationId) {
        const select: ChatEvent = { type: 'chat.select', conversationId: route.conversationId }
        enqueue.sendTo(chat, select)
      }
    }),
    storeRoute: assign({ route: (_, route: DashboardRoute) => route }),
    storeStartedFrom: assign({
      startedFrom: ({ context }, params: { conversationId: string }) =>
        context.route ? { conversationId: params.conversationId, path: context.route.path } : null,
    }),
  },
  guards: {
    isNewChatOnScreen: ({ context }) => isNewChat(context.route),
    isOnScreen: ({ context }, params: { conversationId: string }) =>
      context.route?.conversationId === params.conversationId,
  },
}).createMachine({
  id: 'dashboard',
  context: { route: null, startedFrom: null },
  invoke: [
    { src: 'chat', id: 'chat', systemId: 'chat' },
    { src: 'chatEvents', id: 'chatEvents' },
  ],
  on: {
    'dashboard.routed': {
      actions: [
        { type: 'tellChat', params: ({ event }) => event.route },
        { type: 'storeRoute', params: ({ event }) => event.route },
      ],
    },
    'chat.conversationStarted': {
      guard: 'isNewChatOnScreen',
      description:
        "A new chat's first message started its conversation: the address becomes the conversation's " +
        '(a replace: the new chat and its conversation are one screen, so Back leaves it).',
      actions: [
        { type: 'storeStartedFrom', params: ({ event }) => ({ conversationId: event.conversationId }) },
        {
          type: 'navigate',
          params: ({ event }) => ({
            to: 'conversation',
            conversationId: event.conversationId,
            replace: true,
          }),
        },
      ],
    },
    'chat.conversationClosed': {
      guard: { type: 'isOnScreen', params: ({ event }) => ({ conversationId: event.conversationId }) },
      description:
        'The conversation on screen went away (created for a message that failed, or deleted): the ' +
        'new chat it came from takes its place, else a new chat.',
      actions: {
        type: 'navigate',
        params: ({ context, event }): NavigateParams =>
          context.startedFrom?.conversationId === event.conversationId
            ? { to: 'address', path: context.startedFrom.path, replace: true }
            : { to: 'newChat', replace: true },
      },
    },
    'chat.askingAbout': {
      guard: ({ context }) => !isNewChat(context.route),
      description: '"Ask about this document" started a new chat: show it (a push: Back returns).',
      actions: { type: 'navigate', params: { to: 'newChat', replace: false } },
    },
  },
})

export type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>

/** The dashboard with its chat and its router filled in; tests fill them with their own. */
export function provideDashboardMachine(deps: DashboardDeps) {
  return dashboardMachine.provide({
    actors: { chat: deps.chat },
    actions: { navigate: (_, params) => deps.navigate(params) },
  })
}
