/** Records to wire shapes (contracts/chat.ts), field by field: nothing leaves as the table has it. */
import type { ChatSession, Message, Source } from '#contracts/chat.ts'
import type { Passage } from '../assistant/passages.ts'
import type { SourceSnapshot } from '../db/schema.ts'
import type { MessageRecord, SessionRecord, SessionSummary } from '../repositories/chat-repository.ts'

export function toSessionDto(s: SessionRecord | SessionSummary): ChatSession {
  return {
    _id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    messageCount: 'messageCount' in s ? s.messageCount : 0,
    lastMessage: 'lastMessage' in s ? s.lastMessage : '',
  }
}

export function toMessageDto(m: MessageRecord): Message {
  return {
    _id: m.id,
    isUser: m.isUser,
    content: m.content,
    createdAt: m.createdAt.toISOString(),
    messageType: 'text',
    feedback: m.feedback,
    sources: m.sources.map(toSourceDto),
  }
}

function toSourceDto(s: SourceSnapshot): Source {
  return {
    documentId: s.documentId,
    documentName: s.documentName,
    chunkId: s.chunkId,
    page: s.page,
    link: s.link,
  }
}

/** What an answer keeps of a passage: enough to name and open it, not its text. */
export function toSourceSnapshot(p: Passage): SourceSnapshot {
  return {
    documentId: p.documentId,
    documentName: p.documentName,
    chunkId: p.chunkId,
    page: p.page,
    link: p.link,
  }
}
