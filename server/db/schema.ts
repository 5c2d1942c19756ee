/**
 * Tables, as Drizzle sees them. Wire DTOs live in contracts/ and are mapped by hand in the
 * repositories: nothing here is sent to a browser as is.
 * Every statement drizzle-kit generates from this file must run on PostgreSQL 15 and PGlite 18.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/** contracts/chat.ts's DISLIKE_REASONS (the schema imports nothing from the wire). */
type DislikeReason = 'incorrect' | 'unsupported' | 'incomplete' | 'other'

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As the person typed it (trimmed); uniqueness is case-insensitive through the index below. */
    email: text('email').notNull(),
    /** Null for an account made by Sign in with Google that never set a password. */
    passwordHash: text('password_hash'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Google's `sub` for the account linked to it by Sign in with Google (D77). */
    googleSubject: text('google_subject').unique(),
    /** Set by the operator (`npm run users -- disable`): no sign-in, every session ended. */
    disabledAt: timestamptz('disabled_at'),
    /** Signed up under EMAIL_VERIFICATION=required and not confirmed yet: no sign-in until then. */
    emailConfirmationPending: boolean('email_confirmation_pending').notNull().default(false),
    /**
     * When the address was last shown to be this account's owner's (D99): a mailed link followed,
     * or Google vouching for it. Null: whoever signed up may not own the mailbox.
     */
    emailProvenAt: timestamptz('email_proven_at'),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
)

/** One sign-in: every refresh token rotated from it belongs to it, and it is revoked as a whole. */
export const refreshTokenFamilies = pgTable(
  'refresh_token_families',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Absolute cap: rotation never extends a sign-in past this. */
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    revokeReason: text('revoke_reason'),
    /** What the Settings' sessions list shows: the browser that signed in, from where, when last refreshed. */
    userAgent: text('user_agent'),
    address: text('address'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [index('refresh_token_families_user_id_idx').on(t.userId)],
)

/**
 * Single-use links sent by mail (D76): a password reset or an email confirmation. Only the
 * token's sha-256 is kept; it works once, before `expires_at`.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'reset-password' | 'confirm-email' */
    purpose: text('purpose').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('account_tokens_user_id_idx').on(t.userId)],
)

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => refreshTokenFamilies.id, { onDelete: 'cascade' }),
    /** sha-256 of the token, hex: the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set when the token is rotated; presenting it again is reuse. */
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('refresh_tokens_family_id_idx').on(t.familyId)],
)

/** A conversation; `updated_at` moves with every answered message and orders the list. */
export const chatConversations = pgTable(
  'chat_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /**
     * Set while an answer is being written in this conversation (a claim any app instance on the
     * database sees): a second send waits its turn (409). A lease, so a crashed instance's claim
     * lapses by itself.
     */
    answeringUntil: timestamptz('answering_until'),
    /**
     * The person limited this conversation to chosen documents (D70): its scope is the rows of
     * chat_scope_documents. True with no row left means every chosen document was deleted since:
     * the conversation says so rather than quietly searching the whole library.
     */
    scoped: boolean('scoped').notNull().default(false),
    /**
     * The assistant it is with (issue 36, D113), kept after the assistant is deleted: no foreign
     * key, so the id stays and the conversation shows the assistant as deleted (no `assistants`
     * row) under `assistant_name`, the name it had when last seen (written at creation and when
     * the assistant is deleted). Null with the name: a conversation with the whole library.
     */
    assistantId: uuid('assistant_id'),
    assistantName: text('assistant_name'),
  },
  (t) => [
    // The conversations to mark when an assistant is deleted.
    index('chat_sessions_assistant_id_idx').on(t.assistantId).where(sql`${t.assistantId} is not null`),
    index('chat_sessions_user_id_updated_at_idx').on(t.userId, t.updatedAt.desc().nullsFirst()),
    // A person's answers being written, counted at every claim (the per-person ceiling, D84).
    index('chat_sessions_answering_idx').on(t.userId).where(sql`${t.answeringUntil} is not null`),
    // Target of chat_messages' (session_id, user_id) key: a message always has its conversation's owner.
    unique('chat_sessions_id_user_id_key').on(t.id, t.userId),
  ],
)

/**
 * What an answer drew on, copied when it is stored: re-ingesting or deleting the document later
 * must not change or break the sources of an old answer.
 */
export type SourceSnapshot = {
  documentId: string
  documentName: string
  chunkId: string
  page: number | null
  link: string | null
  /** The [n] the answer cites it by; absent on answers stored before citations were numbered. */
  citation?: number | null
  /** The nearest heading above the passage, when there is one. */
  heading?: string | null
  /** The passage's text as the answer saw it, so a citation can be checked later. */
  quote?: string
  /** Ranked for the question, or part of a document given whole (D71); absent on older answers. */
  mode?: 'ranked' | 'whole-document'
}

/**
 * How much of a message search reads (the index, the match, the rank and the snippet): any message
 * up to this long is searched whole, and a longer one (stored before answers were capped) never
 * costs more than this (D84).
 */
export const MESSAGE_SEARCH_CHARS = 65_536

/** A question word not in the person's vocabulary, and the word of it retrieval searched for. */
export type Correction = { from: string; to: string }

/**
 * One sentence's citation check as stored with its answer (D129; the check's own type,
 * server/answering/citation-checks/types.ts, repeated here: the schema imports nothing).
 */
export type StoredCheck = {
  marker: number | null
  sentence: string
  outcome: 'checked' | 'repaired' | 'unverified' | 'nothing-to-check' | 'not-cited'
  sourceIndex: number | null
  movedFrom?: number
  missing: string[]
  /** The model judge's verdict (D140); never changes the outcome. */
  judge?: 'supported' | 'not-supported'
}

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('session_id').notNull(),
    /** The conversation's owner, kept on the message so feedback checks ownership without a join. */
    userId: uuid('user_id').notNull(),
    isUser: boolean('is_user').notNull(),
    content: text('content').notNull(),
    messageType: text('message_type').notNull().default('text'),
    /** 'like' | 'dislike' on an answer; null until the person rates it. */
    feedback: text('feedback').$type<'like' | 'dislike'>(),
    sources: jsonb('sources').$type<SourceSnapshot[]>().notNull().default([]),
    /** The question's words retrieval corrected (typo tolerance, D83): what it searched for instead. */
    corrections: jsonb('corrections').$type<Correction[]>().notNull().default([]),
    /** The answer's citations checked (D129); null on questions and on answers not checked. */
    checks: jsonb('checks').$type<StoredCheck[]>(),
    /** An answer the person stopped while it was being written: what had arrived by then. */
    stopped: boolean('stopped').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Why the shown version was disliked (D93): one of DISLIKE_REASONS, and/or a short note. */
    feedbackReason: text('feedback_reason').$type<DislikeReason>(),
    feedbackNote: text('feedback_note'),
    /**
     * The version shown (1-based) and how many the answer has (D93). The row holds the shown
     * version's text, sources and feedback, so every reader (history, search, follow-ups,
     * exports) reads what the person sees; chat_answer_versions keeps them all.
     */
    version: smallint('version').notNull().default(1),
    versionCount: smallint('version_count').notNull().default(1),
  },
  (t) => [
    index('chat_messages_session_id_created_at_idx').on(t.conversationId, t.createdAt),
    // Conversation search (GET /chat/search) matches this expression (searchableContent).
    index('chat_messages_content_fts_idx').using(
      'gin',
      sql`to_tsvector('english', left(${t.content}, ${sql.raw(String(MESSAGE_SEARCH_CHARS))}))`,
    ),
    foreignKey({
      name: 'chat_messages_session_owner_fk',
      columns: [t.conversationId, t.userId],
      foreignColumns: [chatConversations.id, chatConversations.userId],
    }).onDelete('cascade'),
    check('chat_messages_feedback_check', sql`${t.feedback} in ('like', 'dislike')`),
    check('chat_messages_message_type_check', sql`${t.messageType} = 'text'`),
    // DISLIKE_REASONS, DISLIKE_NOTE_MAX_LENGTH and MAX_ANSWER_VERSIONS (contracts/chat.ts).
    check(
      'chat_messages_feedback_reason_check',
      sql`${t.feedbackReason} in ('incorrect', 'unsupported', 'incomplete', 'other')`,
    ),
    check('chat_messages_feedback_note_check', sql`char_length(${t.feedbackNote}) <= 500`),
    check(
      'chat_messages_reason_needs_dislike_check',
      sql`(${t.feedbackReason} is null and ${t.feedbackNote} is null) or ${t.feedback} = 'dislike'`,
    ),
    check(
      'chat_messages_version_check',
      sql`${t.version} between 1 and ${t.versionCount} and ${t.versionCount} <= 10`,
    ),
  ],
)

/**
 * Every version of an answer written more than once (D93), 1 first. The shown one is also the
 * answer's row in chat_messages; its feedback here is as it was when it was last shown (the
 * row is the truth for the shown version). Goes with its message (cascade).
 */
export const chatAnswerVersions = pgTable(
  'chat_answer_versions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    position: smallint('position').notNull(),
    content: text('content').notNull(),
    sources: jsonb('sources').$type<SourceSnapshot[]>().notNull().default([]),
    corrections: jsonb('corrections').$type<Correction[]>().notNull().default([]),
    checks: jsonb('checks').$type<StoredCheck[]>(),
    stopped: boolean('stopped').notNull().default(false),
    feedback: text('feedback').$type<'like' | 'dislike'>(),
    feedbackReason: text('feedback_reason').$type<DislikeReason>(),
    feedbackNote: text('feedback_note'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.position] }),
    check('chat_answer_versions_position_check', sql`${t.position} between 1 and 10`),
  ],
)

/**
 * A conversation shared by a read-only link (D73): at most one share per conversation, gone with
 * it. The link's token is never stored: it is an HMAC of `nonce` under a key derived from
 * APP_SECRET (so the owner can be shown the same link again), and only its SHA-256 is kept, to
 * find the share. `snapshot` is the conversation as it was shared (contracts/sharing.ts'
 * SharedConversation); sharing again replaces it and keeps the link.
 */
export const chatShares = pgTable(
  'chat_shares',
  {
    conversationId: uuid('session_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    nonce: text('nonce').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('chat_shares_user_id_idx').on(t.userId),
    foreignKey({
      name: 'chat_shares_session_owner_fk',
      columns: [t.conversationId, t.userId],
      foreignColumns: [chatConversations.id, chatConversations.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * A document of the user's, from wherever it came ('drive', 'upload', 'test' …): one row per
 * (user, source, external id), so ingesting the same file again replaces it.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    link: text('link'),
    /** The source's revision marker (Drive `version`), to skip re-ingesting an unchanged file. */
    version: text('version'),
    modifiedTime: timestamptz('modified_time'),
    /** Words in all its chunks (whitespace-separated, headings included): BM25's document length. */
    tokenCount: integer('token_count').notNull().default(0),
    /**
     * Its passages were indexed as English before languages were detected (migration 0018): the
     * language pass re-indexes them in their own (D82), in parts through the document writer; the
     * ordinal from which passages still wait (0 until it starts), null when none do.
     */
    languagesFrom: integer('languages_from'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('documents_user_id_source_external_id_key').on(t.userId, t.source, t.externalId),
    // Target of document_chunks' (document_id, user_id) key: a chunk always has its document's owner.
    unique('documents_id_user_id_key').on(t.id, t.userId),
    // The language pass's next document (D82): empty once every library is done.
    index('documents_languages_pending_idx').on(t.id).where(sql`${t.languagesFrom} is not null`),
  ],
)

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })
/** A text search configuration's name ('english', 'german', 'simple'…): a passage's language (D82). */
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' })

export const documentChunks = pgTable(
  'document_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id').notNull(),
    /** Denormalised from the document so retrieval filters by owner before it ranks anything. */
    userId: uuid('user_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    page: integer('page'),
    heading: text('heading'),
    text: text('text').notNull(),
    /** Words in heading + text (whitespace-separated): BM25's passage length. */
    tokenCount: integer('token_count').notNull().default(0),
    /**
     * The text search configuration its words are analysed with: its detected language's Snowball
     * stemmer, or 'simple' for a language PostgreSQL has none for (D82).
     */
    language: regconfig('language').notNull().default(sql`'english'::regconfig`),
    /** Its words in its own language; heading words marked A, body words B. */
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector("language", coalesce("heading", '')), 'A') || setweight(to_tsvector("language", "text"), 'B')`,
      ),
  },
  (t) => [
    /**
     * The words of each passage keyed by its owner and language (D95: `owner_words`, migration
     * 0022): a word's posting list in this index holds one person's passages of one language,
     * however many people the database serves.
     */
    index('document_chunks_owner_words_idx')
      .using('gin', sql`owner_words(${t.userId}, ${t.language}, ${t.tsv})`)
      .with({ gin_pending_list_limit: 256 }),
    index('document_chunks_user_id_idx').on(t.userId),
    index('document_chunks_document_id_idx').on(t.documentId),
    foreignKey({
      name: 'document_chunks_document_owner_fk',
      columns: [t.documentId, t.userId],
      foreignColumns: [documents.id, documents.userId],
    })
      .onDelete('cascade')
      // A document takes its library row's id (D70): re-keying one moves its chunks along.
      .onUpdate('cascade'),
  ],
)

/**
 * BM25's term statistics, per user and language (retrieval ranks within one person's library, and
 * a language's passages as their own collection, D82): how many of the user's chunks and
 * documents in that language hold each lexeme. Kept up to date by the statements that write and
 * remove passages (passage-writes.ts), so the ranking never waits for ANALYZE. The
 * person's vocabulary for typo correction too: trigrams of the lexemes (pg_trgm), owner first.
 */
export const retrievalTerms = pgTable(
  'retrieval_terms',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    language: regconfig('language').notNull().default(sql`'english'::regconfig`),
    lexeme: text('lexeme').notNull(),
    chunkCount: integer('chunk_count').notNull(),
    documentCount: integer('document_count').notNull(),
  },
  (t) => [
    // Lexeme before language: a question's words are looked up by (owner, lexeme), whatever the planner knows.
    primaryKey({ columns: [t.userId, t.lexeme, t.language] }),
    index('retrieval_terms_user_trigram_idx').using('gin', t.userId, t.lexeme.op('gin_trgm_ops')),
  ],
)

/**
 * BM25's collection totals per user and language: the chunks in that language, the documents that
 * have any, and their words (the average passage length of that language).
 */
export const retrievalLanguages = pgTable(
  'retrieval_languages',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    language: regconfig('language').notNull(),
    chunkCount: integer('chunk_count').notNull().default(0),
    documentCount: integer('document_count').notNull().default(0),
    tokenCount: bigint('token_count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.language] })],
)

/**
 * The lexemes of a document whose write, removal or re-indexing in its languages (D82) spans
 * several transactions (D91): those, per language, an earlier part already counted in
 * `retrieval_terms.document_count` (direction 1) or took out of it (direction -1), so that each
 * lexeme of the document counts once; the lexeme '' (never a word) stands for the language
 * itself, counted once in `retrieval_languages.document_count`. A re-indexing takes a lexeme
 * out and counts it in again, hence the direction in the key. Emptied when the last part is done;
 * goes with its document, and follows it when it takes its library row's id (D70).
 */
export const indexingLexemes = pgTable(
  'indexing_lexemes',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    language: regconfig('language').notNull().default(sql`'english'::regconfig`),
    lexeme: text('lexeme').notNull(),
    direction: smallint('direction').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.language, t.lexeme, t.direction] })],
)

/** BM25's collection totals, per user: chunks, documents and words (for the average lengths). */
export const retrievalTotals = pgTable('retrieval_totals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  chunkCount: integer('chunk_count').notNull().default(0),
  documentCount: integer('document_count').notNull().default(0),
  tokenCount: bigint('token_count', { mode: 'number' }).notNull().default(0),
})

/**
 * A user's own Google Drive connection: the OAuth tokens, sealed (AES-256-GCM, the user id as
 * associated data: server/drive/token-crypto.ts), never in clear text. One per user.
 */
export const googleConnections = pgTable('google_connections', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The Google account's address, when Drive told us (about.get); only shown and logged. */
  googleEmail: text('google_email'),
  /** The scopes Google granted, space-separated. */
  scope: text('scope').notNull(),
  /** Sealed JSON: access token, refresh token, expiry. */
  tokens: text('tokens').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
})

/**
 * A connect window under way: single use, bound to the user who opened it, short-lived. The state
 * travels through Google and back; only its SHA-256 is kept. The PKCE verifier is sealed.
 */
export const googleOauthStates = pgTable(
  'google_oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('google_oauth_states_expires_at_idx').on(t.expiresAt)],
)

/** Where a library document's state stands; 'ready' means its passages are searchable. */
export const LIBRARY_STATUSES = ['queued', 'processing', 'ready', 'failed', 'skipped'] as const
export type LibraryStatus = (typeof LIBRARY_STATUSES)[number]

/**
 * The user's library: one row per file DocChat knows of (a Drive file or an upload), whatever
 * became of it. Its passages live in `documents`/`document_chunks` under the same
 * (user, source, external id), written only through indexDocument. A Drive file the user deleted
 * from the library stays here as `excluded`, so later syncs leave it out.
 */
export const libraryDocuments = pgTable(
  'library_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'drive' | 'upload' */
    source: text('source').notNull(),
    /** The Drive file id, or the upload's own id. */
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    webViewLink: text('web_view_link'),
    /** The revision this row's status is about (Drive `version`, else its modifiedTime). */
    version: text('version'),
    modifiedTime: timestamptz('modified_time'),
    size: integer('size'),
    status: text('status').$type<LibraryStatus>().notNull(),
    /** Why it failed or was skipped, a phrase a person reads after the file's name. */
    reason: text('reason'),
    pages: integer('pages'),
    chunks: integer('chunks'),
    /** The pages whose text OCR read (an image: [1]); null when OCR read none (D74). */
    ocrPages: integer('ocr_pages').array(),
    /** Deleted by the user: its passages are gone and syncs leave the file out. */
    excluded: boolean('excluded').notNull().default(false),
    /**
     * A Drive file that is in the library only because a shortcut points to it: the shortcut's id
     * (deleting the shortcut removes the document). Null for every other row.
     */
    viaShortcut: text('via_shortcut'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('library_documents_user_id_source_external_id_key').on(t.userId, t.source, t.externalId),
    // Target of chat_scope_documents' (document_id, user_id) key: a scope holds only its owner's documents.
    unique('library_documents_id_user_id_key').on(t.id, t.userId),
    check(
      'library_documents_status_check',
      sql`${t.status} in ('queued', 'processing', 'ready', 'failed', 'skipped')`,
    ),
  ],
)

/**
 * The documents a conversation is limited to (D70), in the order the person chose them. Both keys
 * carry the owner, so a conversation can only ever hold its owner's documents; deleting the
 * conversation or the library row takes the row with it (a Drive file removed from the library
 * keeps its row, excluded, so LibraryService.remove deletes its scope rows itself).
 */
export const chatScopeDocuments = pgTable(
  'chat_scope_documents',
  {
    conversationId: uuid('conversation_id').notNull(),
    documentId: uuid('document_id').notNull(),
    userId: uuid('user_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.documentId] }),
    index('chat_scope_documents_document_id_idx').on(t.documentId),
    foreignKey({
      name: 'chat_scope_documents_conversation_owner_fk',
      columns: [t.conversationId, t.userId],
      foreignColumns: [chatConversations.id, chatConversations.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'chat_scope_documents_document_owner_fk',
      columns: [t.documentId, t.userId],
      foreignColumns: [libraryDocuments.id, libraryDocuments.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * Sign-in and sign-up attempt counters (D34): one row per limited key (a sha-256 of
 * "limit:key", so no email or address is stored), shared by every app instance on the database.
 * Rows whose window has ended are deleted as the counters are used.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    keyHash: text('key_hash').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: timestamptz('window_ends_at').notNull(),
    /**
     * sha-256 of the account (its lowercased email) a counter is about, when it is about one, so
     * deleting the account deletes its counters too (D78); null for per-address counters.
     */
    subjectHash: text('subject_hash'),
  },
  (t) => [
    index('rate_limit_counters_window_ends_at_idx').on(t.windowEndsAt),
    index('rate_limit_counters_subject_hash_idx').on(t.subjectHash),
  ],
)

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/**
 * An uploaded file's bytes, kept so its reading can be retried; goes with its library row. Stored
 * in parts of UPLOAD_PART_BYTES (D104): no statement carries a whole 5 MB file, and none holds
 * embedded PGlite's thread for long. A file stored before D104 is one part (0).
 */
export const libraryUploads = pgTable(
  'library_uploads',
  {
    libraryDocumentId: uuid('library_document_id')
      .notNull()
      .references(() => libraryDocuments.id, { onDelete: 'cascade' }),
    part: integer('part').notNull().default(0),
    content: bytea('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.libraryDocumentId, t.part] })],
)

/**
 * Background work, durable in the database (D26): claimed with FOR UPDATE SKIP LOCKED
 * under a lease that the worker renews while it runs, so a job whose process died is claimed
 * again once its lease runs out, and two workers never hold the same job. A job is deleted when
 * it is done; `key` names the work so the same work is never queued twice.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What to run: a handler name ('drive-file', 'upload-file'). */
    kind: text('kind').notNull(),
    /** Unique: the same work (one document's ingest) is queued at most once. */
    key: text('key').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** Claims so far; the handler decides when a transient failure is final. */
    attempts: integer('attempts').notNull().default(0),
    /** Not claimed before this (a retry's backoff). */
    runAt: timestamptz('run_at').notNull(),
    /** The worker holding it, and until when; null while queued. */
    lockedBy: text('locked_by'),
    lockedUntil: timestamptz('locked_until'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('jobs_run_at_idx').on(t.runAt), index('jobs_user_id_idx').on(t.userId)],
)

/**
 * A user's Drive sync: who is listing the Drive right now (a lease, so a dead process does not
 * block the next sync) and what the last listing found, which the ingest answer reports on.
 */
export const driveSyncs = pgTable('drive_syncs', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Set while one instance lists the Drive and queues its files; null otherwise. */
  listingUntil: timestamptz('listing_until'),
  startedAt: timestamptz('started_at').notNull(),
  /** The last listing's outcome (added/updated/unchanged/removed/skipped ids and names). */
  plan: jsonb('plan').$type<Record<string, unknown>>(),
  /**
   * Drive's change-feed token as of the last sync: the next one lists only what changed since.
   * Null before the first sync (it lists everything).
   */
  pageToken: text('page_token'),
})

/**
 * The folders of a person's connected Drive (D115), as the last sync saw them: the tree an
 * assistant's folder knowledge is read from. A folder Drive no longer has (deleted, trashed, no
 * longer shared) stays as `missing`, with its last name, so an assistant's page can say so; its
 * documents leave the knowledge at once. `parentId` is Drive's (the root folder or a shared drive
 * when the folder sits at the top: neither is a row here).
 */
export const driveFolders = pgTable(
  'drive_folders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    folderId: text('folder_id').notNull(),
    name: text('name').notNull(),
    parentId: text('parent_id'),
    missing: boolean('missing').notNull().default(false),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.folderId] }),
    index('drive_folders_user_id_parent_id_idx').on(t.userId, t.parentId),
  ],
)

/**
 * Which folders each Drive item of a person sits in (D115): one row per (item, parent folder),
 * from Drive's `parents`. `targetId` is the file the item stands for: the item itself, or a
 * shortcut's target, so a file counts in its own folders and in every folder a shortcut to it sits
 * in. Keyed by Drive ids, not library rows: a folder's documents are the library rows whose
 * Drive file is a target here (a query, never a copy), and an item that leaves Drive takes its rows.
 */
export const driveFileParents = pgTable(
  'drive_file_parents',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: text('file_id').notNull(),
    folderId: text('folder_id').notNull(),
    targetId: text('target_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.fileId, t.folderId] }),
    index('drive_file_parents_user_id_folder_id_idx').on(t.userId, t.folderId),
  ],
)

/**
 * The files uploaded into a conversation (the spec's upload call, or attached before its first
 * message): the conversation lists them. A file leaves the list when it leaves the library; the
 * rows go with the conversation.
 */
export const chatAttachments = pgTable(
  'chat_attachments',
  {
    conversationId: uuid('session_id').notNull(),
    userId: uuid('user_id').notNull(),
    libraryDocumentId: uuid('library_document_id')
      .notNull()
      .references(() => libraryDocuments.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.libraryDocumentId] }),
    index('chat_attachments_library_document_id_idx').on(t.libraryDocumentId),
    foreignKey({
      name: 'chat_attachments_session_owner_fk',
      columns: [t.conversationId, t.userId],
      foreignColumns: [chatConversations.id, chatConversations.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * An assistant a person built (issue 36, D113): instructions, an answer policy, model settings and
 * its knowledge (assistant_documents, assistant_folders). Deleting it leaves its conversations,
 * which then show it as deleted (chat_sessions.assistant_id keeps the id, see there).
 */
export const assistants = pgTable(
  'assistants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    instructions: text('instructions').notNull().default(''),
    starterQuestions: jsonb('starter_questions').$type<string[]>().notNull().default([]),
    /** contracts/assistants.ts' ANSWER_POLICIES. */
    answerPolicy: text('answer_policy').$type<'documents-only' | 'documents-first'>().notNull(),
    fallbackAnswer: text('fallback_answer').notNull(),
    /** Null: the server's defaults. */
    temperature: doublePrecision('temperature'),
    maxAnswerTokens: integer('max_answer_tokens'),
    model: text('model'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('assistants_user_id_updated_at_idx').on(t.userId, t.updatedAt),
    // Target of the knowledge tables' (assistant_id, user_id) keys: knowledge is always its owner's.
    unique('assistants_id_user_id_key').on(t.id, t.userId),
    check('assistants_answer_policy_check', sql`${t.answerPolicy} in ('documents-only', 'documents-first')`),
  ],
)

/**
 * The library documents an assistant may read, in the order chosen. Both keys carry the owner,
 * so an assistant only ever holds its owner's documents; a library row deleted takes its rows
 * along, and one removed from the library (a Drive file kept as `excluded`) is left out on reading.
 */
export const assistantDocuments = pgTable(
  'assistant_documents',
  {
    assistantId: uuid('assistant_id').notNull(),
    documentId: uuid('document_id').notNull(),
    userId: uuid('user_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.assistantId, t.documentId] }),
    index('assistant_documents_document_id_idx').on(t.documentId),
    foreignKey({
      name: 'assistant_documents_assistant_owner_fk',
      columns: [t.assistantId, t.userId],
      foreignColumns: [assistants.id, assistants.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'assistant_documents_document_owner_fk',
      columns: [t.documentId, t.userId],
      foreignColumns: [libraryDocuments.id, libraryDocuments.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * The Google Drive folders an assistant follows (with their subfolders), by Drive folder id, in
 * the order chosen: which documents they hold is asked of the Drive sync's records at answer time
 * (server/drive/drive-folders.ts), never copied here.
 */
export const assistantFolders = pgTable(
  'assistant_folders',
  {
    assistantId: uuid('assistant_id').notNull(),
    folderId: text('folder_id').notNull(),
    userId: uuid('user_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.assistantId, t.folderId] }),
    foreignKey({
      name: 'assistant_folders_assistant_owner_fk',
      columns: [t.assistantId, t.userId],
      foreignColumns: [assistants.id, assistants.userId],
    }).onDelete('cascade'),
  ],
)

/** The publishing budgets (contracts/publishing.ts' Budgets; the schema imports nothing from the wire). */
type PublishingBudgets = {
  answersPerDay: number
  tokensPerDay: number
  visitorAnswersPerHour: number
  visitorAnswersPerDay: number
}

/**
 * How an assistant is published (issue 37, D117): one row from the first time its owner sets a
 * publishing field. `public_id` is made on the first publish and kept when it is unpublished, so
 * publishing again gives the same addresses; `identity_secret` is sealed with a key derived
 * from APP_SECRET (never readable through the API once shown).
 */
export const assistantPublications = pgTable(
  'assistant_publications',
  {
    assistantId: uuid('assistant_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    published: boolean('published').notNull().default(false),
    publicId: text('public_id'),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    publicPage: boolean('public_page').notNull().default(true),
    allowIndexing: boolean('allow_indexing').notNull().default(false),
    showSourceNames: boolean('show_source_names').notNull().default(true),
    hideUnverified: boolean('hide_unverified').notNull().default(false),
    busyMessage: text('busy_message').notNull(),
    privacyNotice: text('privacy_notice').notNull().default(''),
    budgets: jsonb('budgets').$type<PublishingBudgets>().notNull(),
    requireChallenge: boolean('require_challenge').notNull().default(false),
    retentionDays: integer('retention_days').notNull(),
    identitySecret: text('identity_secret'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('assistant_publications_public_id_key').on(t.publicId),
    foreignKey({
      name: 'assistant_publications_assistant_owner_fk',
      columns: [t.assistantId, t.userId],
      foreignColumns: [assistants.id, assistants.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * A cited sentence's check kept with the snippet of the passage it cites (D135): `at` is its
 * place among the answer's checks, so the answer's list is read back in the order of its sentences.
 */
export type VisitorSnippetCheck = StoredCheck & { at: number }

/**
 * A cited passage as the visitor was shown it (contracts/publishing.ts' PublicSource), with its
 * name kept for the owner, and the checks of the sentences citing it (D135; absent: not checked).
 */
export type VisitorSnippet = {
  citation: number
  documentName: string
  page: number | null
  snippet: string
  checks?: VisitorSnippetCheck[]
}

/**
 * A visitor's conversation with a published assistant (issue 37, D117): never in the owner's chat
 * tables. `visitor_key` is the anonymous id of the visitor's cookie, or `sub:` and the signed
 * user's id; the signed name and email are the latest the host site vouched for. Deleted with the
 * assistant (and so with the owner's account) and after the retention.
 */
export const visitorConversations = pgTable(
  'visitor_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assistantId: uuid('assistant_id').notNull(),
    userId: uuid('user_id').notNull(),
    visitorKey: text('visitor_key').notNull(),
    signed: boolean('signed').notNull().default(false),
    visitorName: text('visitor_name'),
    visitorEmail: text('visitor_email'),
    firstQuestion: text('first_question').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('visitor_conversations_visitor_idx').on(t.assistantId, t.visitorKey, t.updatedAt),
    index('visitor_conversations_assistant_created_idx').on(t.assistantId, t.createdAt),
    // The owner's inbox pages newest activity first by (updated_at, id) (D122): read backwards,
    // this index hands out one page without sorting the assistant's every conversation.
    index('visitor_conversations_assistant_updated_idx').on(t.assistantId, t.updatedAt, t.id),
    foreignKey({
      name: 'visitor_conversations_assistant_owner_fk',
      columns: [t.assistantId, t.userId],
      foreignColumns: [assistants.id, assistants.userId],
    }).onDelete('cascade'),
  ],
)

/**
 * A question or an answer in a visitor conversation: the answer keeps only the snippets the
 * visitor was shown, whether it was the assistant's fallback (`fell_back`) or cited nothing
 * (`found_nothing`), the visitor's feedback and the model tokens it cost (the inbox reads them).
 */
export const visitorMessages = pgTable(
  'visitor_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => visitorConversations.id, { onDelete: 'cascade' }),
    isUser: boolean('is_user').notNull(),
    content: text('content').notNull(),
    sources: jsonb('sources').$type<VisitorSnippet[]>().notNull().default([]),
    fellBack: boolean('fell_back').notNull().default(false),
    foundNothing: boolean('found_nothing').notNull().default(false),
    feedback: text('feedback').$type<'like' | 'dislike'>(),
    tokens: integer('tokens').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('visitor_messages_conversation_idx').on(t.conversationId, t.createdAt),
    check('visitor_messages_feedback_check', sql`${t.feedback} in ('like', 'dislike')`),
  ],
)

/**
 * A published assistant's answers and tokens counted per UTC window (D119): the assistant's own
 * per day (`visitor_hash` ''), and each visitor's answers per hour and per day. A window is a row
 * of its own, keyed by where it starts on the app's clock, so a new window needs no reset.
 * Visitor keys are stored hashed.
 */
export const publishedCounters = pgTable(
  'published_counters',
  {
    assistantId: uuid('assistant_id')
      .notNull()
      .references(() => assistants.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    period: text('period').$type<'day' | 'hour'>().notNull(),
    windowStart: timestamptz('window_start').notNull(),
    answers: integer('answers').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.assistantId, t.visitorHash, t.period, t.windowStart] }),
    index('published_counters_window_start_idx').on(t.windowStart),
    check('published_counters_period_check', sql`${t.period} in ('day', 'hour')`),
  ],
)

/**
 * Visitor answers being written now (D119): one row each, until finished or until `expires_at`
 * on the app's clock, so an instance that dies mid-answer holds its places only that long.
 */
export const publishedAnswerLeases = pgTable(
  'published_answer_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assistantId: uuid('assistant_id')
      .notNull()
      .references(() => assistants.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    index('published_answer_leases_assistant_expires_idx').on(t.assistantId, t.expiresAt),
    index('published_answer_leases_expires_at_idx').on(t.expiresAt),
  ],
)

/**
 * What a person's answers spent, per UTC day and where they were asked (D119): the app, their
 * published assistants, the API. USAGE_TOKENS_PER_DAY bounds the day's tokens over every source;
 * the usage view (issue 38) reads the same rows.
 */
export const usageDays = pgTable(
  'usage_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    source: text('source').$type<'app' | 'published' | 'api'>().notNull(),
    answers: integer('answers').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day, t.source] }),
    check('usage_days_source_check', sql`${t.source} in ('app', 'published', 'api')`),
  ],
)

/**
 * An API key's quotas (issue 38, D130): its requests in each UTC minute and its requests and
 * model tokens each UTC day, one row per key, period and window (keyed by its start, so a new
 * window needs no reset), counted under the key's advisory lock. They go with the key and with
 * its person.
 */
export const apiKeyCounters = pgTable(
  'api_key_counters',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').$type<'minute' | 'day'>().notNull(),
    windowStart: timestamptz('window_start').notNull(),
    requests: integer('requests').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.period, t.windowStart] }),
    index('api_key_counters_window_start_idx').on(t.windowStart),
    check('api_key_counters_period_check', sql`${t.period} in ('minute', 'day')`),
  ],
)

/**
 * What answers spent per API key and per assistant (issue 38, D134), beside usage_days, whose
 * per-person rows alone hold USAGE_TOKENS_PER_DAY: one row per person, UTC day, kind and subject,
 * added in the same transaction as the person's day. No foreign key on the subject: a revoked or
 * deleted key's, a deleted assistant's figures stay in the month they were spent in; they go with
 * their person.
 */
export const usageSubjectDays = pgTable(
  'usage_subject_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').$type<'key' | 'assistant'>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    answers: integer('answers').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day, t.kind, t.subjectId] }),
    check('usage_subject_days_kind_check', sql`${t.kind} in ('key', 'assistant')`),
  ],
)

/**
 * The API's answers being written (D134): a lease per answer, counted with the app's
 * conversations' claims (chat_sessions.answering_until) against LLM_CONCURRENCY_PER_USER under
 * the person's lock. Released when the answer ends; a lease only lapses when an instance dies.
 */
export const apiAnswerLeases = pgTable(
  'api_answer_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    until: timestamptz('until').notNull(),
  },
  (t) => [index('api_answer_leases_user_id_idx').on(t.userId)],
)

/**
 * Proof-of-work solutions already accepted (ALTCHA, D119), by a hash of their challenge's
 * signature, kept until the challenge expires: a solution counts once, on every instance.
 */
export const usedChallenges = pgTable(
  'used_challenges',
  {
    signatureHash: text('signature_hash').primaryKey(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('used_challenges_expires_at_idx').on(t.expiresAt)],
)

/**
 * Personal API keys (issue 38, D124). The key itself is never stored: only its HMAC under a key
 * derived from APP_SECRET (`key_hash`, looked up on every request) and its first characters
 * (`prefix`, shown in the list). A key limited to one assistant carries its owner in the foreign
 * key, so it can only name its owner's assistant, and it ends with that assistant. Revoked keys
 * stay (revoked_at set) so the list of live keys and the 20-key limit ignore them.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** contracts/api-keys.ts' API_KEY_SCOPES. */
    scopes: jsonb('scopes').$type<('chat' | 'library')[]>().notNull(),
    assistantId: uuid('assistant_id'),
    /** Null: the operator's limit (API_KEY_REQUESTS_PER_MINUTE, API_KEY_TOKENS_PER_DAY). */
    requestsPerMinute: integer('requests_per_minute'),
    tokensPerDay: integer('tokens_per_day'),
    createdAt: timestamptz('created_at').notNull(),
    lastUsedAt: timestamptz('last_used_at'),
    expiresAt: timestamptz('expires_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    index('api_keys_user_id_idx').on(t.userId),
    foreignKey({
      name: 'api_keys_assistant_owner_fk',
      columns: [t.assistantId, t.userId],
      foreignColumns: [assistants.id, assistants.userId],
    }).onDelete('cascade'),
  ],
)
