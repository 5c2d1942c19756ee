/**
 * "Export my data" (D78): the account, every conversation with its messages and the passages its
 * answers cited, the library's list and the Drive connection's address, as one JSON document.
 * Built from the domains' own repositories; no token, hash or file content is in it.
 */
import type { AccountExport } from '#contracts/account.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import type { ChatRepository, MessageRecord } from '../chat/chat-repository.ts'
import type { SourceSnapshot } from '../db/schema.ts'
import type { LibraryRepository } from '../documents/library/library-repository.ts'
import type { GoogleDriveRepository } from '../drive/google-drive-repository.ts'

type Deps = {
  chat: ChatRepository
  library: LibraryRepository
  drive: GoogleDriveRepository
  now: () => Date
}

export async function exportAccount(
  user: CurrentUser & { googleLinked: boolean },
  { chat, library, drive, now }: Deps,
): Promise<AccountExport> {
  // Every version of an answer written more than once; the shown one as the message holds it.
  const versionsOf = async (m: MessageRecord) =>
    (await chat.listVersions(user.id, m.id)).map((v) => {
      const shown = v.position === m.version ? m : v
      return {
        version: v.position,
        content: v.content,
        createdAt: v.createdAt.toISOString(),
        feedback: shown.feedback,
        feedbackReason: shown.feedbackReason,
        feedbackNote: shown.feedbackNote,
        stopped: v.stopped,
        sources: v.sources.map(exportSource),
        checks: v.checks,
      }
    })
  const conversations = await chat.listConversations(user.id)
  const withMessages = []
  for (const conversation of conversations) {
    const messages = await chat.listMessages(user.id, conversation.id)
    withMessages.push({
      id: conversation.id,
      title: conversation.title,
      createdAt: conversation.createdAt.toISOString(),
      updatedAt: conversation.updatedAt.toISOString(),
      documents: conversation.scoped ? conversation.scopeDocuments.map((d) => d.name) : null,
      messages: await Promise.all(
        messages.map(async (m) => ({
          role: m.isUser ? ('user' as const) : ('assistant' as const),
          content: m.content,
          createdAt: m.createdAt.toISOString(),
          feedback: m.feedback,
          feedbackReason: m.feedbackReason,
          feedbackNote: m.feedbackNote,
          stopped: m.stopped,
          sources: m.sources.map(exportSource),
          ...(m.isUser ? {} : { checks: m.checks }),
          ...(m.versionCount > 1 ? { version: m.version, versions: await versionsOf(m) } : {}),
        })),
      ),
    })
  }
  const documents = [...(await library.list(user.id)), ...(await library.listExcluded(user.id))]
  const connection = await drive.findConnection(user.id)
  return {
    format: 'docchat-account-export/1',
    exportedAt: now().toISOString(),
    account: { email: user.email, createdAt: user.createdAt.toISOString(), googleLinked: user.googleLinked },
    conversations: withMessages,
    library: documents.map((d) => ({
      name: d.name,
      source: d.source,
      mimeType: d.mimeType,
      status: d.excluded ? 'removed' : d.status,
      reason: d.reason,
      pages: d.pages,
      link: d.webViewLink,
      addedAt: d.createdAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
    })),
    googleDrive: { connected: connection !== null, email: connection?.googleEmail ?? null },
  }
}

function exportSource(s: SourceSnapshot) {
  return { documentName: s.documentName, page: s.page, citation: s.citation ?? null, quote: s.quote ?? null }
}
