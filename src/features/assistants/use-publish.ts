/**
 * The Publish panel's facade (issue 37) over the editor's `publish` child (publish-machine.ts):
 * what it is doing and saying, the secret while its dialog is open, and its intents.
 */
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { PublishingRequest } from '#contracts/publishing.ts'
import type { assistantEditorMachine } from '#machines/assistants/assistant-editor-machine.ts'
import type { publishMachine } from '#machines/assistants/publish-machine.ts'

export function usePublish(editor: ActorRefFrom<typeof assistantEditorMachine>) {
  // The child starts once the assistant has loaded; until then the panel is not drawn.
  const child = useSelector(
    editor,
    (s) => s.children.publish as ActorRefFrom<typeof publishMachine> | undefined,
  )
  return {
    saving: useSelector(child, (s) => s?.matches('saving') ?? false),
    makingSecret: useSelector(child, (s) => s?.matches('making') ?? false),
    confirmingRotate: useSelector(child, (s) => s?.matches('confirmingRotate') ?? false),
    secret: useSelector(child, (s) => s?.context.secret ?? null),
    problem: useSelector(child, (s) => s?.context.problem ?? null),
    notice: useSelector(child, (s) => s?.context.notice ?? null),
    save: (fields: PublishingRequest) => child?.send({ type: 'publish.save', fields }),
    makeSecret: () => child?.send({ type: 'publish.makeSecret' }),
    confirmRotate: () => child?.send({ type: 'publish.confirmRotate' }),
    cancelRotate: () => child?.send({ type: 'publish.cancelRotate' }),
    closeSecret: () => child?.send({ type: 'publish.closeSecret' }),
  }
}

export type Publish = ReturnType<typeof usePublish>
