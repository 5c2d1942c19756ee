/** The Documents screen's library actor; <LibraryProvider> fills it. */
import { createActorContext } from '@xstate/react'
import { libraryMachine } from '#machines/library/library-machine.ts'

export const LibraryActor = createActorContext(libraryMachine)
