import { ChatView } from '#src/features/chat/chat-view.tsx'
import { css } from '../../../../styled-system/css'

/** product §2 Chat view (chat feature). The conversation has no visible title; its h1 is for screen readers. */
export function ChatSection() {
  return (
    <>
      <h1 className={css({ srOnly: true })}>Chat with Docs</h1>
      <ChatView />
    </>
  )
}
