/** The chat actor, scoped to the dashboard (lazy-loaded with it); <ChatProvider> fills its effects. */
import { createActorContext } from '@xstate/react'
import { chatMachine } from '#machines/chat/chat-machine.ts'

export const ChatActor = createActorContext(chatMachine)
