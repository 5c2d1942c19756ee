import { openTitleOf } from '#machines/chat/chat-selectors.ts'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { ChatView } from '#src/features/chat/chat-view.tsx'
import { useConversations } from '#src/features/chat/use-chat.ts'
import { ConversationSharing } from '#src/features/sharing/conversation-sharing.tsx'
import { SharesProvider } from '#src/features/sharing/shares-provider.tsx'
import { css } from '../../../../styled-system/css'

/**
 * product §2 Chat view (chat feature), with Export and Share for the open conversation (sharing
 * feature, D73). The conversation has no visible title; its h1 is for screen readers. The tab is
 * named after the open conversation ('{title} · DocChat'), so a person with several tabs finds it.
 */
export function ChatSection() {
  const { selectedConversationId } = useConversations()
  const title = ChatActor.useSelector(openTitleOf)
  useDocumentTitle(title ?? 'Chat with Docs')
  return (
    <>
      <h1 className={css({ srOnly: true })}>Chat with Docs</h1>
      <ChatView
        titleActions={
          selectedConversationId ? (
            <SharesProvider>
              <ConversationSharing conversationId={selectedConversationId} />
            </SharesProvider>
          ) : null
        }
      />
    </>
  )
}
