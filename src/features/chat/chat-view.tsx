import { Alert } from '#src/components/ui/alert.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { ChatIcon } from '#src/components/ui/icons.tsx'
import { css } from '../../../styled-system/css'
import { ChatComposer } from './chat-composer.tsx'
import { ConversationTitle } from './conversation-title.tsx'
import { MessageList } from './message-list.tsx'
import { UploadDialog } from './upload-dialog.tsx'
import { useConversation } from './use-chat.ts'
import { useUpload } from './use-upload.ts'

/** product §2 Chat view: the conversation (or its empty state), the composer and the upload dialog. */
export function ChatView() {
  const chat = useConversation()
  const { messages, loading, awaitingReply, ratingMessageIds, rate } = chat
  const upload = useUpload()
  const empty = messages.length === 0
  return (
    <section
      aria-label="Chat with Docs"
      className={css({ display: 'flex', flexDirection: 'column', h: 'full', maxW: '3xl', mx: 'auto' })}
    >
      {chat.title === null ? null : <ConversationTitle title={chat.title} onRename={chat.rename} />}
      {empty && !loading ? (
        <div className={css({ flex: '1', display: 'grid', placeItems: 'center', overflowY: 'auto' })}>
          <EmptyState icon={<ChatIcon size={24} />} title="Start a conversation">
            Ask questions about your documents or start a general conversation. I'm here to help!
          </EmptyState>
        </div>
      ) : (
        <MessageList
          messages={messages}
          awaitingReply={awaitingReply}
          ratingMessageIds={ratingMessageIds}
          onRate={rate}
          regenerableId={chat.regenerableId}
          onRegenerate={chat.regenerate}
        />
      )}
      {chat.notice === null ? null : <Alert>{chat.notice}</Alert>}
      <ChatComposer
        disabled={loading}
        draft={chat.draft}
        onDraft={chat.type}
        onSend={chat.send}
        onAttach={upload.open}
        streaming={chat.streaming}
        onStop={chat.stop}
      />
      {upload.isOpen ? <UploadDialog upload={upload} /> : null}
    </section>
  )
}
