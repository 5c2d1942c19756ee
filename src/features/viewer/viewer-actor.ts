/** The document viewer's actor; <DocumentViewer> fills it. */
import { createActorContext } from '@xstate/react'
import { viewerMachine } from '#machines/viewer/viewer-machine.ts'

export const ViewerActor = createActorContext(viewerMachine)
