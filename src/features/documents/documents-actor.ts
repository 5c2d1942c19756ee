/**
 * The documents actor (the person's library: statuses, progress, the selection): a child of the
 * dashboard's wiring actor (D112), which loads it when Documents comes on screen and provides it
 * here; useDocumentsLogic() (documents-provider.tsx) fills its calls.
 */
import type { ActorRefFrom } from 'xstate'
import type { documentsMachine } from '#machines/documents/documents-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const DocumentsActor = createActorRefContext<ActorRefFrom<typeof documentsMachine>>('DocumentsActor')
