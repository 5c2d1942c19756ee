/**
 * The Documents table's view actor (search, filters, sort, page, menus): a child of the
 * dashboard's wiring actor (D112), which resets it when Documents comes on screen and provides it here.
 */
import type { ActorRefFrom } from 'xstate'
import type { documentsTableMachine } from '#machines/documents/documents-table-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const DocumentsTableActor =
  createActorRefContext<ActorRefFrom<typeof documentsTableMachine>>('DocumentsTableActor')
