/**
 * What the chat machine keeps and takes (product §3): conversations and messages in the UI's shape (not
 * the wire's), the events views send through the facade, the facts its effects report back, and
 * the effects provideChatMachine(deps) injects.
 */
import type {
  Conversation,
  ConversationAssistant,
  Correction,
  DislikeReasonRequest,
  Feedback,
  Message,
  Scope,
  ScopeDocument,
  SearchHit,
  SendMessageResponse,
  Source,
} from '#contracts/chat.ts'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import type { LibraryDocument } from '#contracts/documents.ts'
import type { Logger } from '#machines/shared/effects.ts'
import type { FileFacts } from '#machines/upload/upload-rules.ts'

/** product §3: the UI keeps id, title, lastMessage, timestamp, messageCount. */
export type ConversationItem = {
  id: string
  title: string
  lastMessage: string
  /** ISO time of the last activity (the conversation's updatedAt). */
  timestamp: string
  messageCount: number
  /** The documents it searches (D70); null: the whole library. */
  scope: Scope | null
  /** The assistant it is with (issue 36); null: none. */
  assistant: ConversationAssistant | null
}

/** The assistant a new chat will be with (chosen from "New chat"'s menu, issue 36). */
export type DraftAssistant = { id: string; name: string }

/** product §3: isUser becomes sender 'user' | 'bot'. */
export type MessageItem = {
  id: string
  sender: 'user' | 'bot'
  content: string
  /** ISO time the message was written. */
  time: string
  feedback: Feedback | null
  sources: Source[]
  /** The question's misspelled words and what the answer searched for instead ("Searched for: …"). */
  corrections: Correction[]
  /** An answer stopped while it was written: it holds what had arrived. */
  stopped: boolean
  /** Its citations checked (D129); null or absent: not checked (yet: a streaming answer has none). */
  checks?: CitationCheck[] | null
  /** An answer still being written (it grows token by token). */
  streaming: boolean
  /** Which of the answer's versions is shown (1-based) and how many it has (D93); 1 and 1 otherwise. */
  version: number
  versionCount: number
}

/** The message on its way (product §4 send steps 1–5); null when nothing is being sent. */
export type Outgoing = {
  /** The temporary id it is shown with until the server's user message replaces it. */
  tempId: string
  content: string
  /** The conversation it goes to; null until step 2 has created one. */
  conversationId: string | null
  /** The conversation was created for this message: if the message fails, the conversation goes too. */
  createdConversation: boolean
  /** The answer so far, as it streams in. */
  answer: string
  /** The passages its markers may name (the stream's first `sources`), until the answer is stored. */
  sources: Source[]
  /** The documents a conversation created for it searches (the new chat's draft, D70). */
  documentIds: string[]
  /** The assistant a conversation created for it is with (the new chat's draft, issue 36). */
  assistantId?: string | null
}

/**
 * A send stopped with an answer so far: the server stores the question and that answer when the
 * connection closes, under ids the browser has not seen yet. Kept until they are fetched.
 */
export type StoppedSend = {
  conversationId: string
  /** The temporary id of the question (its answer bubble is answerIdOf(tempId)). */
  tempId: string
  /** The answer as far as it had arrived here (the server may have stored a little more). */
  answer: string
  /** How many times the conversation's messages were fetched to find it. */
  checks: number
}

/**
 * A file chosen in a new chat before its first message (a chip in the composer): it is uploaded
 * into the conversation that message creates, before the message is sent, so the answer can use it.
 */
export type Attachment = {
  file: FileFacts
  content: Blob
  /** Why the last try to upload it failed (the server's sentence, or ours); null otherwise. */
  error: string | null
}

/** A source of an answer on screen, named by the answer's id and the passage's chunk. */
export type OpenSource = { messageId: string; chunkId: string }

/** The last answer being written again: the old one comes back if that fails. */
export type Regenerating = { conversationId: string; messageId: string; previous: MessageItem }

/** What the conversation list actor keeps (conversation-list-machine.ts). */
export type ConversationListContext = {
  /** Newest activity first. */
  conversations: ConversationItem[]
  /** The search typed in History ('' for none) and what it found (null until it answers). */
  searchQuery: string
  searchHits: { conversation: ConversationItem; snippet: string }[] | null
}

/** What the open conversation actor keeps (open-conversation-machine.ts). */
export type OpenConversationContext = {
  /** The conversation on screen; null for a new chat. */
  conversationId: string | null
  messages: MessageItem[]
  /** The files uploaded into the conversation on screen, oldest first. */
  files: LibraryDocument[]
  /** The passage open beside the conversation (a citation's), or null. */
  openSource: OpenSource | null
  /** The injected clock (the time a message on its way is shown with). */
  now: () => Date
}

/** What the open conversation's scope actor keeps (conversation-scope-machine.ts, D70). */
export type ConversationScopeContext = {
  /** The conversation whose scope is on screen (the open one); null for a new chat. */
  conversationId: string | null
  /** What the open conversation searches, as the server last said; null: the whole library. */
  scope: Scope | null
  /**
   * The documents a new chat will search (chips above the composer): its first message creates
   * the conversation limited to them. Empty: the whole library.
   */
  draftScope: ScopeDocument[]
  /** The assistant a new chat will be with (issue 36); null: none. */
  draftAssistant: DraftAssistant | null
  /** A sentence about the scope to show above the composer (a refused document, a failed save). */
  scopeNotice: string | null
}

/** What the dislike's reason actor keeps (dislike-reason-machine.ts, D93). */
export type DislikeReasonContext = {
  /** The answer just disliked whose reason is asked for (the actor's state says how far). */
  reasonFor: string | null
}

/** What the sender actor keeps (sender-machine.ts). */
export type SenderContext = {
  outgoing: Outgoing | null
  regenerating: Regenerating | null
  stoppedSend: StoppedSend | null
  /** What is typed in the composer; a message that could not be sent comes back here. */
  draft: string
  /**
   * A sentence about the last message the server refused for a reason the person can act on
   * (too many answers at once, 429); null otherwise. Other failures stay silent (product §8).
   * It goes with the text it was about: the next send or regenerate clears it.
   */
  notice: string | null
  /** Counts sends, to mint temporary ids. */
  sentCount: number
  /** The file waiting in the composer of a new chat, or null. */
  attachment: Attachment | null
  /** The injected clock. */
  now: () => Date
}

/** The clock the sender and the open conversation are given (tests and other surfaces pass theirs). */
export type ChatInput = { now?: () => Date } | undefined

/** What views ask for (through the facade). */
export type ChatIntent =
  | { type: 'chat.send'; content: string }
  | { type: 'chat.select'; conversationId: string }
  /**
   * A new chat. `assistant`: with that assistant, or (null) with none; left out (the address
   * became the new chat's), the new chat's draft assistant stays, as its documents do.
   */
  | { type: 'chat.new'; assistant?: DraftAssistant | null }
  | { type: 'chat.delete'; conversationId: string }
  | { type: 'chat.rate'; messageId: string; feedback: Feedback }
  /** Shows another version of an answer (‹ 1/2 ›, D93). */
  | { type: 'chat.showVersion'; messageId: string; version: number }
  /** Why the answer just disliked did not help: a reason, a note, or both. */
  | { type: 'chat.explainDislike'; messageId: string; why: DislikeReasonRequest }
  /** The reason is not given (Skip), or the thanks is closed. */
  | { type: 'chat.skipReason' }
  | { type: 'chat.type'; text: string }
  | { type: 'chat.stop' }
  | { type: 'chat.regenerate'; messageId: string }
  | { type: 'chat.rename'; conversationId: string; title: string }
  | { type: 'chat.search'; query: string }
  /** Opens a passage an answer cites beside the conversation; one at a time. */
  | { type: 'chat.showSource'; messageId: string; chunkId: string }
  /** A file for the first message of a new chat; another one replaces it. */
  | { type: 'chat.attach'; file: FileFacts; content: Blob }
  | { type: 'chat.detach' }
  /** A file the upload dialog put into a conversation. */
  | { type: 'chat.fileAdded'; conversationId: string; document: LibraryDocument }
  | { type: 'chat.closeSource' }
  /** Adds a document to what the chat on screen searches (the open conversation's, or the new chat's). */
  | { type: 'chat.scopeAdd'; document: ScopeDocument }
  | { type: 'chat.scopeRemove'; documentId: string }
  /** Back to the whole library. */
  | { type: 'chat.scopeClear' }
  /** A new chat about these documents ("Ask about this document"). */
  | { type: 'chat.askAbout'; documents: ScopeDocument[] }

/** What the delete and feedback effects report back (several can be in flight at once). */
export type ChatReport =
  | { type: 'chat.conversationDeleted'; conversationId: string }
  | { type: 'chat.deleteFailed'; conversationId: string; error: unknown }
  | { type: 'chat.feedbackSaved'; messageId: string; feedback: Feedback | null }
  | { type: 'chat.feedbackFailed'; messageId: string; error: unknown }
  | { type: 'chat.versionShown'; messageId: string; message: Message }
  | { type: 'chat.versionFailed'; messageId: string; error: unknown }
  | { type: 'chat.renamed'; conversation: Conversation }
  | { type: 'chat.renameFailed'; conversationId: string; error: unknown }
  | { type: 'chat.scopeSaved'; conversation: Conversation }
  | { type: 'chat.scopeFailed'; conversationId: string; error: unknown }
  /** What the streamed answer (a send or a regenerate) reports as it is written. */
  | { type: 'chat.token'; text: string }
  /** The passages the answer may cite (before its first word), or did cite (after its last). */
  | { type: 'chat.sources'; sources: Source[] }
  | { type: 'chat.replied'; reply: SendMessageResponse }
  | { type: 'chat.answerFailed'; error: unknown }
  /** What uploading the file attached in a new chat reports. */
  | { type: 'chat.attachmentUploaded'; document: LibraryDocument }
  | { type: 'chat.attachmentFailed'; error: unknown }

export type ChatEvent = ChatIntent | ChatReport

/**
 * What the chat tells the app it did on its own, so the address can follow (the machine never
 * navigates): it started the conversation of a new chat for its first message, or the
 * conversation on screen went away (deleted, or created for a message that got no answer).
 */
export type ChatEmitted =
  | { type: 'chat.conversationStarted'; conversationId: string }
  | { type: 'chat.conversationClosed'; conversationId: string }
  /** A new chat about chosen documents was started ("Ask about this document"): show the chat. */
  | { type: 'chat.askingAbout' }

export type AnswerStream = {
  onToken: (text: string) => void
  onSources: (sources: Source[]) => void
  signal: AbortSignal
}

/** The chat API of src/api/chat.ts satisfies this as it is; the app adds its logger. */
export type ChatDeps = {
  listConversations: () => Promise<Conversation[]>
  /** A new conversation; limited to `documentIds` when given (D70); with the assistant `assistantId` when given. */
  createConversation: (
    title: string,
    documentIds?: readonly string[],
    assistantId?: string,
  ) => Promise<Conversation>
  listMessages: (conversationId: string) => Promise<Message[]>
  /** The files uploaded into a conversation (product §7, ours). */
  listConversationFiles: (conversationId: string) => Promise<LibraryDocument[]>
  /** The spec's upload into a conversation; resolves once the file is read (or after a while). */
  uploadFile: (conversationId: string, file: { name: string; content: Blob }) => Promise<LibraryDocument>
  /** The streamed send: `onToken` gets the answer as it is written; `signal` stops it. */
  sendMessage: (conversationId: string, content: string, stream: AnswerStream) => Promise<SendMessageResponse>
  /** Writes the last answer again, streamed the same way; resolves with the replaced answer. */
  regenerate: (
    conversationId: string,
    messageId: string,
    stream: AnswerStream,
  ) => Promise<SendMessageResponse>
  deleteConversation: (conversationId: string) => Promise<void>
  setFeedback: (messageId: string, feedback: Feedback) => Promise<Message>
  /** Shows (and stores) another version of an answer; resolves with the answer as it now reads. */
  showVersion: (messageId: string, version: number) => Promise<Message>
  /** Why a disliked answer did not help (beside the spec's feedback call). */
  explainDislike: (messageId: string, why: DislikeReasonRequest) => Promise<Message>
  renameConversation: (conversationId: string, title: string) => Promise<Conversation>
  /** What the conversation searches: these documents, or null for the whole library. */
  setScope: (conversationId: string, documentIds: readonly string[] | null) => Promise<Conversation>
  searchConversations: (query: string) => Promise<SearchHit[]>
  log: Logger
}

/**
 * What the sender tells the surface it runs in about the exchange on its way (product §4 send
 * steps 1–5, Stop, Regenerate). The surface (chat-machine.ts, or another chat's) hands each fact to
 * the open conversation and, where there is one, the conversation list; each applies what concerns it.
 */
export type ExchangeFact =
  /** Step 1: the question, shown at once under a temporary id. */
  | { type: 'exchange.shown'; message: MessageItem }
  /** Step 2: the conversation created for it (it becomes the open one if the question is still on screen). */
  | { type: 'exchange.created'; tempId: string; conversation: Conversation }
  /** Creating it failed; a chosen document that is gone leaves the new chat's draft. */
  | { type: 'exchange.refused'; error: unknown }
  /** The answer so far, as it is written. */
  | { type: 'exchange.grew'; tempId: string; answer: string; sources: Source[]; at: string }
  /** The passages the answer `answerId` may cite, or did cite. */
  | { type: 'exchange.sources'; answerId: string; sources: Source[] }
  /** Step 4: the stored question and answer replace the temporary ones. */
  | { type: 'exchange.replied'; conversationId: string; tempId: string; reply: SendMessageResponse }
  /** Step 5: the temporary question (and any answer so far) goes away. */
  | { type: 'exchange.dropped'; tempId: string }
  /** The conversation created for a message that got no answer goes away (and is deleted). */
  | { type: 'exchange.discarded'; conversationId: string }
  /** Stopped with an answer so far: both stay, the answer marked stopped. */
  | { type: 'exchange.stopped'; conversationId: string | null; tempId: string; answer: string; at: string }
  /** The stopped exchange as the server stored it: the bubbles take its ids. */
  | { type: 'exchange.stopStored'; tempId: string; stored: SendMessageResponse }
  /** Regenerate: the answer is written again in place. */
  | { type: 'exchange.regenerating'; messageId: string }
  | { type: 'exchange.regeneratedGrew'; messageId: string; text: string }
  | { type: 'exchange.regenerated'; conversationId: string; messageId: string; reply: SendMessageResponse }
  /** A failed regenerate: the old answer comes back. */
  | { type: 'exchange.restored'; previous: MessageItem }
  /** A stopped regenerate: kept as a new version when any of it arrived (D93), else the old one back. */
  | { type: 'exchange.regenerateStopped'; previous: MessageItem }
  /** The file attached in a new chat is in the conversation its first message created. */
  | { type: 'exchange.fileUploaded'; conversationId: string; document: LibraryDocument }

/** What the open conversation tells the surface: which one is open now, and what the list should know. */
export type ConversationFact =
  /** `started`: the first message of a new chat created it; `closed`: the one open went away. */
  | { type: 'conversation.changed'; conversationId: string | null; started?: boolean; closed?: string }
  | { type: 'conversation.scopeStored'; conversation: Conversation }
  /** Another version of the conversation's last answer is shown: the list's preview follows. */
  | { type: 'conversation.previewed'; conversationId: string; content: string }

/**
 * What the open conversation tells its scope actor: the conversation on screen went away, or a new
 * chat's first message took the draft with it (`opened`: the conversation it created, when that
 * became the one on screen).
 */
export type ScopeCommand = { type: 'scope.closed' } | { type: 'scope.draftSent'; opened: Conversation | null }

/** What the conversation list tells the surface. */
export type ListFact =
  | { type: 'list.loaded'; conversations: ConversationItem[] }
  | { type: 'list.deleted'; conversationId: string }

/** What the surface tells the sender: the intent, with what the open conversation says about it. */
export type SenderCommand =
  | {
      type: 'sender.send'
      content: string
      conversationId: string | null
      documentIds: string[]
      assistantId?: string | null
    }
  | { type: 'sender.regenerate'; conversationId: string; previous: MessageItem }
