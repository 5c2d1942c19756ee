import { expect, test } from 'vitest'
import { startDashboard as start } from './dashboard-fakes.ts'

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
  routed({ path: '/dashboard/docs', section: 'documents' })
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
  routed({ path: '/dashboard/docs', section: 'documents' })
  chatEmits({ type: 'chat.askingAbout' })
  routed({ path: '/dashboard/chat' })
  chatEmits({ type: 'chat.askingAbout' })

  expect(navigations).toEqual([{ to: 'newChat', replace: false }])
})
