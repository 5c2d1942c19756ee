/** Records to wire shapes (contracts/chat.ts), field by field: nothing leaves as the table has it. */
import type { Conversation, Message, Source } from '#contracts/chat.ts'
import type { UsedPassage } from '../answering/answer-shapes.ts'
import type { SourceSnapshot } from '../db/schema.ts'
import type { ConversationRecord, ConversationSummary, MessageRecord } from './chat-repository.ts'

export function toConversationDto(s: ConversationRecord | ConversationSummary): Conversation {
  return {
    _id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    messageCount: 'messageCount' in s ? s.messageCount : 0,
    lastMessage: 'lastMessage' in s ? s.lastMessage : '',
    scope: s.scoped
      ? {
          documentIds: s.scopeDocuments.map((d) => d.id),
          documents: s.scopeDocuments.map((d) => ({ id: d.id, name: d.name })),
        }
      : null,
    assistant: s.assistantId
      ? {
          id: s.assistantId,
          name: s.liveAssistantName ?? s.assistantName ?? '',
          deleted: s.liveAssistantName === null,
        }
      : null,
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
    ...(m.corrections.length > 0
      ? { corrections: m.corrections.map((c) => ({ from: c.from, to: c.to })) }
      : {}),
    stopped: m.stopped,
    version: m.version,
    versionCount: m.versionCount,
    feedbackReason: m.feedbackReason,
    feedbackNote: m.feedbackNote,
    ...(m.isUser ? {} : { checks: m.checks }),
  }
}

export function toSourceDto(s: SourceSnapshot): Source {
  return {
    documentId: s.documentId,
    documentName: s.documentName,
    chunkId: s.chunkId,
    page: s.page,
    link: s.link,
    citation: s.citation ?? null,
    heading: s.heading ?? null,
    ...(s.quote === undefined ? {} : { quote: s.quote }),
    ...(s.mode === undefined ? {} : { mode: s.mode }),
  }
}

/**
 * What an answer keeps of a passage: enough to name and open it, and its text as the answer saw
 * it, so the citation can still be checked after the document changes or goes.
 */
export function toSourceSnapshot(p: UsedPassage): SourceSnapshot {
  return {
    documentId: p.documentId,
    documentName: p.documentName,
    chunkId: p.chunkId,
    page: p.page,
    link: p.link,
    citation: p.citation,
    heading: p.heading,
    quote: p.text,
    mode: p.whole ? 'whole-document' : 'ranked',
  }
}
