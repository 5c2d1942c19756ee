import { useState } from 'react'
import { provideChatMachine } from '#machines/chat/chat-machine.ts'
import type { ChatDeps } from '#machines/chat/chat-types.ts'
import { createChatApi } from '#src/api/chat.ts'
import { createStreamCall } from '#src/api/chat-stream.ts'
import { createDocumentsApi, uploadFile } from '#src/api/documents.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

/**
 * While a call is under way, calling again joins it instead of starting another. StrictMode
 * (development, view tests) stops and restarts the actor on mount, which restarts the conversation
 * load: joining keeps it to one request, as product §4 says ("Sessions load once").
 */
function shareInFlight<T>(call: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null
  return () => {
    pending ??= call().finally(() => {
      pending = null
    })
    return pending
  }
}

/**
 * The chat's logic with its calls filled, for the dashboard's lifetime: the dashboard's wiring
 * actor runs it as its child (D106), so the Chat section, History and the sidebar's Recent
 * Conversations all read the same conversation list and open conversation. The chat API is built
 * here, inside the dashboard chunk, from the app's one HTTP client.
 */
export function useChatLogic() {
  const { http, httpOptions, log } = useAppDeps()
  const [logic] = useState(() => {
    const api = createChatApi(http, createStreamCall(httpOptions))
    const deps: ChatDeps = {
      ...api,
      listConversations: shareInFlight(api.listConversations),
      listConversationFiles: createDocumentsApi(http).listConversationFiles,
      uploadFile: (conversationId, file) => uploadFile({ conversationId, ...file }),
      // The SPA sends through the streamed call: the answer grows as it is written.
      sendMessage: api.streamMessage,
      log,
    }
    return provideChatMachine(deps)
  })
  return logic
}
