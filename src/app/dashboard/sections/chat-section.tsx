import { useState } from 'react'
import { openTitleOf } from '#machines/chat/chat-selectors.ts'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { ChatView } from '#src/features/chat/chat-view.tsx'
import { useConversations } from '#src/features/chat/use-chat.ts'
import {
  ConversationSharing,
  ConversationSharingItems,
  ShareDialog,
} from '#src/features/sharing/conversation-sharing.tsx'
import { SharesProvider } from '#src/features/sharing/shares-provider.tsx'
import { css } from '../../../../styled-system/css'

/**
 * product §2 Chat view (chat feature), with Export and Share for the open conversation (sharing
 * feature, D73): beside its title, or on a phone in its bar's menu, whose Share opens the dialog
 * here (the menu closes as it opens). The conversation has no visible title; its h1 is for screen
 * readers. The tab is named after the open conversation ('{title} · DocChat'), so a person with
 * several tabs finds it.
 */
export function ChatSection() {
  const { selectedConversationId: id } = useConversations()
  const title = ChatActor.useSelector(openTitleOf)
  useDocumentTitle(title ?? 'Chat with Docs')
  const [sharing, setSharing] = useState<string | null>(null)
  return (
    <>
      <h1 className={css({ srOnly: true })}>Chat with Docs</h1>
      <ChatView
        titleActions={
          id ? (
            <SharesProvider>
              <ConversationSharing conversationId={id} />
            </SharesProvider>
          ) : null
        }
        menuItems={
          id ? <ConversationSharingItems conversationId={id} onShare={() => setSharing(id)} /> : null
        }
      />
      {sharing !== null && sharing === id ? (
        <SharesProvider>
          <ShareDialog conversationId={sharing} onClose={() => setSharing(null)} />
        </SharesProvider>
      ) : null}
    </>
  )
}
