/**
 * The dashboard's one Google Drive actor, shared by Documents and Integrations: a child of the
 * dashboard's wiring actor (D112), which the dashboard provides here; useDriveLogic()
 * (drive-provider.tsx) fills its calls.
 */
import type { ActorRefFrom } from 'xstate'
import type { driveMachine } from '#machines/drive/drive-machine.ts'
import { createActorRefContext } from '#src/lib/actor-ref-context.tsx'

export const DriveActor = createActorRefContext<ActorRefFrom<typeof driveMachine>>('DriveActor')
