/**
 * The chat actor, a child of the dashboard's wiring actor (D106); the dashboard provides it here,
 * and useChatLogic() (chat-provider.tsx) fills its effects.
 */
import type { ActorRefFrom } from 'xstate'
import type { chatMachine } from '#machines/chat/chat-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const ChatActor = createActorRefContext<ActorRefFrom<typeof chatMachine>>('ChatActor')
