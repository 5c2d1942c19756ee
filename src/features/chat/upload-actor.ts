/**
 * The Upload dialog's actor, one for the dashboard (the paperclip and the sidebar open it): a child
 * of the dashboard's wiring actor (D112), which the dashboard provides here; useUploadLogic()
 * (upload-provider.tsx) fills its calls.
 */
import type { ActorRefFrom } from 'xstate'
import type { uploadMachine } from '#machines/upload/upload-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const UploadActor = createActorRefContext<ActorRefFrom<typeof uploadMachine>>('UploadActor')
