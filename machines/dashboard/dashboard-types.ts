/** The dashboard wiring actor's types (dashboard-machine.ts): its routes, destinations, events and deps. */
import type { chatMachine } from '#machines/chat/chat-machine.ts'
import type { ChatEmitted } from '#machines/chat/chat-types.ts'
import type { documentsMachine } from '#machines/documents/documents-machine.ts'
import type { DocumentsTableEmitted } from '#machines/documents/documents-table-machine.ts'
import type { driveMachine } from '#machines/drive/drive-machine.ts'
import type { DriveEmitted, DriveInput } from '#machines/drive/drive-types.ts'
import type { UploadEmitted, uploadMachine } from '#machines/upload/upload-machine.ts'

/** What the address on screen shows, as far as the wiring cares. */
export type DashboardRoute = {
  /** The address itself, to come back to. */
  path: string
  /** The route table's entry on screen ('chat', 'conversation', 'documents', 'document', …). */
  screen: string
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

/** The children's emitted events the wiring acts on, relayed to it as events of its own. */
export type RelayedEvent = ChatEmitted | UploadEmitted | DriveEmitted | DocumentsTableEmitted

export type DashboardEvent = { type: 'dashboard.routed'; route: DashboardRoute } | RelayedEvent

export type DashboardContext = {
  route: DashboardRoute | null
  /** The new chat whose first message started this conversation, to go back to if it closes. */
  startedFrom: { conversationId: string; path: string } | null
  /** The drive child's input: whose Drive, and this app's origin. */
  drive: DriveInput
}

export type DashboardInput = { drive: DriveInput }

/** The children's logic with their calls filled (each feature's provide…Machine), and the router. */
export type DashboardDeps = {
  chat: typeof chatMachine
  upload: typeof uploadMachine
  drive: typeof driveMachine
  documents: typeof documentsMachine
  navigate: (params: NavigateParams) => void
}
