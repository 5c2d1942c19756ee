import { expect, test } from 'vitest'
import { assign, createActor, emit, setup } from 'xstate'
import type { chatMachine } from '#machines/chat/chat-machine.ts'
import type { ChatEmitted } from '#machines/chat/chat-types.ts'
import { type DashboardRoute, type NavigateParams, provideDashboardMachine } from './dashboard-machine.ts'

/**
 * A stand-in for the chat, with the events and emitted events the dashboard uses: it records what
 * it is told, and emits what a test makes it emit. The wiring is tested apart from the chat itself.
 */
const fakeChat = setup({
  types: {
    context: {} as { selectedConversationId: string | null; told: string[] },
    events: {} as
      | { type: 'chat.new' }
      | { type: 'chat.select'; conversationId: string }
      | { type: 'test.emit'; emitted: ChatEmitted },
    emitted: {} as ChatEmitted,
  },
}).createMachine({
  context: { selectedConversationId: null, told: [] },
  on: {
    'chat.new': {
      actions: assign({ selectedConversationId: null, told: ({ context }) => [...context.told, 'new'] }),
    },
    'chat.select': {
      actions: assign({
        selectedConversationId: ({ event }) => event.conversationId,
        told: ({ context, event }) => [...context.told, `select ${event.conversationId}`],
      }),
    },
    // The chat emits after its own change, as the real one does: the conversation started is open.
    'test.emit': {
      actions: [
        assign({
          selectedConversationId: ({ context, event }) =>
            event.emitted.type === 'chat.conversationStarted'
              ? event.emitted.conversationId
              : context.selectedConversationId,
        }),
        emit(({ event }) => event.emitted),
      ],
    },
  },
})

function start() {
  const navigations: NavigateParams[] = []
  const logic = provideDashboardMachine({
    // A stand-in for the chat logic: the same events in and out (see fakeChat above).
    chat: fakeChat as unknown as typeof chatMachine,
    navigate: (params) => navigations.push(params),
  })
  const dashboard = createActor(logic).start()
  const chat = dashboard.system.get('chat')
  const routed = (route: Partial<DashboardRoute> & { path: string }) =>
    dashboard.send({
      type: 'dashboard.routed',
      route: { section: 'chat', conversationId: null, ...route },
    })
  const chatEmits = (emitted: ChatEmitted) => chat.send({ type: 'test.emit', emitted })
  const told = () => (chat.getSnapshot() as { context: { told: string[] } }).context.told
  return { dashboard, navigations, routed, chatEmits, told }
}

test('the chat is the dashboard’s child, reached by its systemId', () => {
  const { dashboard } = start()

  expect(dashboard.system.get('chat')).toBe(dashboard.getSnapshot().children.chat)
})

test('a new chat’s address starts a new chat; a conversation’s address opens it', () => {
  const { routed, told } = start()

  routed({ path: '/dashboard' })
  routed({ path: '/dashboard/c/s1', conversationId: 's1' })
  routed({ path: '/dashboard/c/s2', conversationId: 's2' })

  expect(told()).toEqual(['new', 'select s1', 'select s2'])
})

test('other sections tell the chat nothing; coming back to the chat section starts a new chat', () => {
  const { routed, told } = start()

  routed({ path: '/dashboard/chat' })
  routed({ path: '/dashboard/history', section: 'history' })
  routed({ path: '/dashboard/docs', section: 'docs' })
  routed({ path: '/dashboard/chat' })

  expect(told()).toEqual(['new', 'new'])
})

test('the same route seen again, or /dashboard then /dashboard/chat, tells the chat nothing more', () => {
  const { routed, told } = start()

  routed({ path: '/dashboard' })
  routed({ path: '/dashboard/chat' })
  routed({ path: '/dashboard/c/s1', conversationId: 's1' })
  routed({ path: '/dashboard/c/s1', conversationId: 's1' })

  expect(told()).toEqual(['new', 'select s1'])
})

test('a new chat’s first message replaces its address with the conversation’s', () => {
  const { routed, chatEmits, navigations, told } = start()
  routed({ path: '/dashboard/chat' })

  chatEmits({ type: 'chat.conversationStarted', conversationId: 's1' })
  routed({ path: '/dashboard/c/s1', conversationId: 's1' })

  expect(navigations).toEqual([{ to: 'conversation', conversationId: 's1', replace: true }])
  // The conversation the chat just started is open already: it is not selected again.
  expect(told()).toEqual(['new'])
})

test('a conversation started outside a new chat moves no address', () => {
  const { routed, chatEmits, navigations } = start()
  routed({ path: '/dashboard/history', section: 'history' })

  chatEmits({ type: 'chat.conversationStarted', conversationId: 's1' })

  expect(navigations).toEqual([])
})

test('a conversation that closes gives way to the new chat it came from, else to a new chat', () => {
  const { routed, chatEmits, navigations } = start()
  routed({ path: '/dashboard' })
  chatEmits({ type: 'chat.conversationStarted', conversationId: 's1' })
  routed({ path: '/dashboard/c/s1', conversationId: 's1' })

  chatEmits({ type: 'chat.conversationClosed', conversationId: 's1' })
  routed({ path: '/dashboard' })
  routed({ path: '/dashboard/c/s2', conversationId: 's2' })
  chatEmits({ type: 'chat.conversationClosed', conversationId: 's2' })

  expect(navigations.slice(1)).toEqual([
    { to: 'address', path: '/dashboard', replace: true },
    { to: 'newChat', replace: true },
  ])
})

test('a conversation closed while another is on screen moves no address', () => {
  const { routed, chatEmits, navigations } = start()
  routed({ path: '/dashboard/c/s2', conversationId: 's2' })

  chatEmits({ type: 'chat.conversationClosed', conversationId: 's1' })

  expect(navigations).toEqual([])
})

test('asking about a document shows the new chat (a push), unless a new chat is on screen', () => {
  const { routed, chatEmits, navigations } = start()
  routed({ path: '/dashboard/docs', section: 'docs' })
  chatEmits({ type: 'chat.askingAbout' })
  routed({ path: '/dashboard/chat' })
  chatEmits({ type: 'chat.askingAbout' })

  expect(navigations).toEqual([{ to: 'newChat', replace: false }])
})
