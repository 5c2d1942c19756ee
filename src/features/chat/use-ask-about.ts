/**
 * "Ask about this document" (D70): a new chat limited to the documents given, on screen (the chat
 * emits `chat.askingAbout` and the address follows). Its own file: the citation panel uses it
 * from inside an answer's bubble, which use-chat.ts preloads.
 */
import { useMemo } from 'react'
import type { ScopeDocument } from '#contracts/chat.ts'
import { ChatActor } from './chat-actor.ts'

export function useAskAbout() {
  const chat = ChatActor.useActorRef()
  return useMemo(
    () => (documents: ScopeDocument[]) => {
      chat.send({ type: 'chat.askAbout', documents })
    },
    [chat],
  )
}
