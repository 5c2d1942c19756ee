/** The Upload dialog's actor, one for the dashboard (the paperclip and the sidebar open it); <UploadProvider> fills it. */
import { createActorContext } from '@xstate/react'
import { uploadMachine } from '#machines/upload/upload-machine.ts'

export const UploadActor = createActorContext(uploadMachine)
