/**
 * Stand-ins for the dashboard's children, for its machine tests: each records what it is told and
 * emits what a test makes it emit (`test.emit`), so the wiring is tested apart from the children
 * themselves. The Documents table is the real one (it has no calls).
 */
import { type AnyEventObject, assign, createActor, emit, setup } from 'xstate'
import type { chatMachine } from '#machines/chat/chat-machine.ts'
import type { ChatEmitted } from '#machines/chat/chat-types.ts'
import type { documentsMachine } from '#machines/documents/documents-machine.ts'
import type { driveMachine } from '#machines/drive/drive-machine.ts'
import type { uploadMachine } from '#machines/upload/upload-machine.ts'
import { provideDashboardMachine } from './dashboard-machine.ts'
import type { DashboardRoute, NavigateParams, RelayedEvent } from './dashboard-types.ts'

type TestEmit = { type: 'test.emit'; emitted: RelayedEvent }

/** The chat: what it is told, and the conversation it has open, as the real one keeps it. */
const fakeChat = setup({
  types: {
    context: {} as { selectedConversationId: string | null; told: string[] },
    events: {} as
      | { type: 'chat.new' }
      | { type: 'chat.select'; conversationId: string }
      | { type: 'chat.attach'; file: { name: string } }
      | { type: 'chat.fileAdded'; conversationId: string; document: { name: string } }
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
    'chat.attach': {
      actions: assign({ told: ({ context, event }) => [...context.told, `attach ${event.file.name}`] }),
    },
    'chat.fileAdded': {
      actions: assign({
        told: ({ context, event }) => [
          ...context.told,
          `file ${event.document.name} in ${event.conversationId}`,
        ],
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

/** The upload, the drive or the documents: the events it is told (with an id, if they carry one). */
const fakeChild = setup({
  types: {
    context: {} as { told: string[] },
    events: {} as AnyEventObject,
    emitted: {} as RelayedEvent,
  },
  actions: {
    emitIt: emit(({ event }) => (event as TestEmit).emitted),
  },
  guards: {
    emits: ({ event }, type: RelayedEvent['type']) => (event as TestEmit).emitted.type === type,
  },
}).createMachine({
  context: { told: [] },
  initial: 'idle',
  // The drive's 'ingesting' tag, which the wiring reads when Documents comes on screen.
  states: {
    idle: {
      on: {
        'test.emit': {
          guard: { type: 'emits', params: 'drive.ingestStarted' },
          target: 'ingesting',
          actions: 'emitIt',
        },
      },
    },
    ingesting: {
      tags: 'ingesting',
      on: {
        'test.emit': {
          guard: { type: 'emits', params: 'drive.ingestFinished' },
          target: 'idle',
          actions: 'emitIt',
        },
      },
    },
  },
  on: {
    'test.emit': { actions: 'emitIt' },
    '*': {
      actions: assign({
        told: ({ context, event }) => [
          ...context.told,
          'id' in event ? `${event.type} ${event.id}` : event.type,
        ],
      }),
    },
  },
})

export function startDashboard() {
  const navigations: NavigateParams[] = []
  const logic = provideDashboardMachine({
    // Stand-ins for the children's logic: the same events in and out (see above).
    chat: fakeChat as unknown as typeof chatMachine,
    upload: fakeChild as unknown as typeof uploadMachine,
    drive: fakeChild as unknown as typeof driveMachine,
    documents: fakeChild as unknown as typeof documentsMachine,
    navigate: (params) => navigations.push(params),
  })
  const dashboard = createActor(logic, {
    input: { drive: { email: 'ada@example.com', origin: 'https://app' } },
  })
  dashboard.start()
  const child = (systemId: string) => dashboard.system.get(systemId)
  const routed = (route: Partial<DashboardRoute> & { path: string }) => {
    const section = route.section ?? 'chat'
    const screen = route.screen ?? (route.conversationId ? 'conversation' : section)
    dashboard.send({ type: 'dashboard.routed', route: { conversationId: null, ...route, section, screen } })
  }
  const emits = (systemId: 'chat' | 'upload' | 'drive', emitted: RelayedEvent) =>
    child(systemId).send({ type: 'test.emit', emitted })
  const chatEmits = (emitted: ChatEmitted) => emits('chat', emitted)
  const toldTo = (systemId: 'chat' | 'upload' | 'drive' | 'documents') =>
    (child(systemId).getSnapshot() as { context: { told: string[] } }).context.told
  const told = () => toldTo('chat')
  return { dashboard, navigations, routed, emits, chatEmits, toldTo, told, child }
}
