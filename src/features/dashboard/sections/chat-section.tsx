import { ChatView } from '#src/features/chat/chat-view.tsx'

/** SPEC §2 Chat view (chat feature). */
export function ChatSection() {
  return <ChatView />
}
