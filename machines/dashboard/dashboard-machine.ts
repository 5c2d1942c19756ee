/**
 * The dashboard's wiring (product §2, D106, D112): the parent of the actors that live as long as
 * the dashboard (the chat, the Upload dialog, Google Drive, the documents (the person's library) and the Documents table,
 * each under its systemId), and what used to be React effects between them and the address. The
 * address is the dashboard's truth: the app tells this actor each route it shows
 * ('dashboard.routed'), and this actor tells the chat, one way, and readies Documents when it comes
 * on screen. The moves the other way: when the chat itself starts the conversation of a new chat,
 * or closes the one on screen, the address is replaced to match; when "Ask about this document"
 * starts a new chat, the address goes to it (a push: Back returns). What a child emits is relayed
 * here and told to the child it concerns. Navigating is an injected action (`navigate`): the app
 * fills it from its router; this machine never imports one.
 */
import { type AnyActorRef, assign, enqueueActions, fromCallback, type SnapshotFrom, setup } from 'xstate'
import { type ChatSnapshot, chatMachine } from '#machines/chat/chat-machine.ts'
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
import type { ChatEvent } from '#machines/chat/chat-types.ts'
import { type DocumentsEvent, documentsMachine } from '#machines/documents/documents-machine.ts'
import { documentsTableMachine } from '#machines/documents/documents-table-machine.ts'
import { driveMachine } from '#machines/drive/drive-machine.ts'
import { uploadMachine } from '#machines/upload/upload-machine.ts'
import type {
  DashboardContext,
  DashboardDeps,
  DashboardEvent,
  DashboardInput,
  DashboardRoute,
  NavigateParams,
  RelayedEvent,
} from './dashboard-types.ts'

/** The route table's entry of the Documents screen (src/app/dashboard/dashboard-screens.tsx). */
export const DOCUMENTS_SCREEN = 'documents'

/** What each child emits that the wiring acts on, by the child's systemId. */
const RELAYED = {
  chat: ['chat.conversationStarted', 'chat.conversationClosed', 'chat.askingAbout'],
  upload: ['upload.attached', 'upload.uploaded'],
  drive: ['drive.ingestStarted', 'drive.ingestFinished'],
  documentsTable: ['table.deleteConfirmed'],
} as const satisfies Record<string, readonly RelayedEvent['type'][]>

/** The children's emitted events, sent on to the dashboard (their parent) as events of its own. */
const relay = fromCallback<DashboardEvent>(({ system, sendBack }) => {
  const subscriptions = Object.entries(RELAYED).flatMap(([systemId, types]) => {
    const child: AnyActorRef = system.get(systemId)
    return types.map((type) => child.on(type, (event: RelayedEvent) => sendBack(event)))
  })
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
})

const isNewChat = (route: DashboardRoute | null) => route?.section === 'chat' && route.conversationId === null
const isDocuments = (route: DashboardRoute | null) => route?.screen === DOCUMENTS_SCREEN

export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent, input: {} as DashboardInput },
  actors: {
    chat: chatMachine,
    upload: uploadMachine,
    drive: driveMachine,
    documents: documentsMachine,
    documentsTable: documentsTableMachine,
    relay,
  },
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
    /**
     * Documents coming on screen starts as its first visit did: the table's view afresh, the
     * library read (and following an ingest already under way); leaving it stops the library.
     */
    tellDocuments: enqueueActions(({ context, system, enqueue }, route: DashboardRoute) => {
      const shown = isDocuments(route)
      if (isDocuments(context.route) === shown) return
      const documents = system.get('documents')
      if (!shown) {
        enqueue.sendTo(documents, { type: 'documents.hide' } satisfies DocumentsEvent)
        return
      }
      enqueue.sendTo(system.get('documentsTable'), { type: 'table.reset' })
      enqueue.sendTo(documents, { type: 'documents.load' } satisfies DocumentsEvent)
      if (system.get('drive').getSnapshot().hasTag('ingesting')) {
        enqueue.sendTo(documents, { type: 'documents.watch' } satisfies DocumentsEvent)
      }
    }),
    toChat: enqueueActions(({ system, enqueue }, event: ChatEvent) =>
      enqueue.sendTo(system.get('chat'), event),
    ),
    toDocuments: enqueueActions(({ system, enqueue }, event: DocumentsEvent) =>
      enqueue.sendTo(system.get('documents'), event),
    ),
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
    isDocumentsOnScreen: ({ context }) => isDocuments(context.route),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => ({ route: null, startedFrom: null, drive: input.drive }),
  // Started once with the dashboard, never per screen; the relay last, once the others are registered.
  invoke: [
    { src: 'chat', id: 'chat', systemId: 'chat' },
    { src: 'upload', id: 'upload', systemId: 'upload' },
    { src: 'drive', id: 'drive', systemId: 'drive', input: ({ context }) => context.drive },
    { src: 'documents', id: 'documents', systemId: 'documents', input: {} },
    { src: 'documentsTable', id: 'documentsTable', systemId: 'documentsTable' },
    { src: 'relay', id: 'relay' },
  ],
  on: {
    'dashboard.routed': {
      actions: [
        { type: 'tellChat', params: ({ event }) => event.route },
        { type: 'tellDocuments', params: ({ event }) => event.route },
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
    'upload.attached': {
      description: "A file chosen in a new chat's Upload dialog waits in its composer (D88).",
      actions: {
        type: 'toChat',
        params: ({ event }) => ({ type: 'chat.attach', file: event.file, content: event.content }),
      },
    },
    'upload.uploaded': [
      {
        guard: ({ event }) => event.conversationId !== null,
        description: "A file uploaded into a conversation joins that conversation's files.",
        actions: {
          type: 'toChat',
          params: ({ event }) => ({
            type: 'chat.fileAdded',
            conversationId: event.conversationId ?? '',
            document: event.document,
          }),
        },
      },
      {
        guard: 'isDocumentsOnScreen',
        description:
          "A file uploaded into the library (the sidebar's 'Upload Document') joins the table at once.",
        actions: { type: 'toDocuments', params: { type: 'documents.load' } },
      },
    ],
    'table.deleteConfirmed': {
      description: 'A deletion the person confirmed in the table is the library’s to carry out.',
      actions: {
        type: 'toDocuments',
        params: ({ event }) => ({ type: 'documents.delete', id: event.libraryId }),
      },
    },
    'drive.ingestStarted': {
      guard: 'isDocumentsOnScreen',
      description:
        'The library follows an ingest (polls before anything is queued) while Documents is on screen.',
      actions: { type: 'toDocuments', params: { type: 'documents.watch' } },
    },
    'drive.ingestFinished': {
      guard: 'isDocumentsOnScreen',
      description:
        'The ingest answered: the library reads once more, then polls only while files are queued.',
      actions: { type: 'toDocuments', params: { type: 'documents.unwatch' } },
    },
  },
})

export type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>

/** The dashboard with its children's calls and its router filled in; tests fill them with their own. */
export function provideDashboardMachine(deps: DashboardDeps) {
  return dashboardMachine.provide({
    actors: { chat: deps.chat, upload: deps.upload, drive: deps.drive, documents: deps.documents },
    actions: { navigate: (_, params) => deps.navigate(params) },
  })
}
