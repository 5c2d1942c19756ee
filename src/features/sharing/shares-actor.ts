/** The person's share links actor; <SharesProvider> fills it. */
import { createActorContext } from '@xstate/react'
import { sharesMachine } from '#machines/shares/shares-machine.ts'

export const SharesActor = createActorContext(sharesMachine)
