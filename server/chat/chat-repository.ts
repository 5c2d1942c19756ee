/**
 * Conversations and their messages, one repository gathered from three files of queries:
 * conversations-repository.ts (conversations, their scope, search and the answer claim),
 * messages-repository.ts (messages, exchanges, feedback) and answer-versions-repository.ts
 * (regenerated versions, D93). Every read and write names the owner (`user_id`), so another
 * user's id behaves exactly like a missing one.
 */
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { answerVersionQueries } from './answer-versions-repository.ts'
import { conversationQueries } from './conversations-repository.ts'
import { messageQueries } from './messages-repository.ts'

export type { NewVersion } from './answer-versions-repository.ts'
export type {
  ConversationRecord,
  ConversationSummary,
  MissingDocuments,
  ScopeIds,
  SearchRow,
} from './conversations-repository.ts'
export type { Exchange, MessageRecord } from './messages-repository.ts'

export type ChatRepository = ReturnType<typeof createChatRepository>

export function createChatRepository(db: Db) {
  return bindDb(db, { ...conversationQueries, ...messageQueries, ...answerVersionQueries })
}
