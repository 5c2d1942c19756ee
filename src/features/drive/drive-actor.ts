/** The dashboard's one Google Drive actor, shared by Documents and Integrations; <DriveProvider> fills it. */
import { createActorContext } from '@xstate/react'
import { driveMachine } from '#machines/drive/drive-machine.ts'

export const DriveActor = createActorContext(driveMachine)
