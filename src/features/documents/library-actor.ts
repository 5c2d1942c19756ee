/**
 * The library actor: a child of the dashboard's wiring actor (D112), which loads it when Documents
 * comes on screen and provides it here; useLibraryLogic() (library-provider.tsx) fills its calls.
 */
import type { ActorRefFrom } from 'xstate'
import type { libraryMachine } from '#machines/library/library-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const LibraryActor = createActorRefContext<ActorRefFrom<typeof libraryMachine>>('LibraryActor')
