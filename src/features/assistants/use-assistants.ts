/**
 * Facades over the assistants' actors (issue 36): the list and one assistant's page. Each hook
 * starts its actor for the screen's lifetime, with the calls of src/api/assistants.ts, and hands
 * the machine's facts to the app (`onCreated`, `onDuplicated`, `onDeleted`: the screen navigates).
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useState } from 'react'
import type { UpdateAssistantRequest } from '#contracts/assistants.ts'
import { provideAssistantEditorMachine } from '#machines/assistants/assistant-editor-machine.ts'
import { provideAssistantsListMachine } from '#machines/assistants/assistants-list-machine.ts'
import { createAssistantsApi } from '#src/api/assistants.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { createDriveApi } from '#src/api/drive.ts'
import { createPublishingApi } from '#src/api/publishing.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { usePublish } from './use-publish.ts'

export function useAssistantsList(onCreated: (assistantId: string) => void) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => provideAssistantsListMachine(createAssistantsApi(http)))
  const actor = useActorRef(logic, { inspect })
  // A fact, not state: the new assistant's page opens once.
  useEffect(() => {
    const subscription = actor.on('assistants.created', (event) => onCreated(event.assistantId))
    return () => subscription.unsubscribe()
  }, [actor, onCreated])
  return {
    assistants: useSelector(actor, (s) => s.context.assistants),
    loading: useSelector(actor, (s) => s.hasTag('loading')),
    creating: useSelector(actor, (s) => s.hasTag('creating')),
    problem: useSelector(actor, (s) => s.context.problem),
    create() {
      actor.send({ type: 'assistants.create' })
    },
  }
}

type EditorFacts = { onDuplicated: (assistantId: string) => void; onDeleted: () => void }

export function useAssistantEditor(assistantId: string, { onDuplicated, onDeleted }: EditorFacts) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => {
    const api = createAssistantsApi(http)
    const documents = createDocumentsApi(http)
    const drive = createDriveApi(http)
    return provideAssistantEditorMachine({
      ...api,
      rotateIdentitySecret: createPublishingApi(http).rotateIdentitySecret,
      driveFolders: () => drive.listFolders(),
      documents: async () =>
        (await documents.listDocuments()).documents.map(({ id, name }) => ({ id, name })),
    })
  })
  const actor = useActorRef(logic, { inspect, input: { assistantId } })
  useEffect(() => {
    const duplicated = actor.on('editor.duplicated', (event) => onDuplicated(event.assistantId))
    const deleted = actor.on('editor.deleted', () => onDeleted())
    return () => {
      duplicated.unsubscribe()
      deleted.unsubscribe()
    }
  }, [actor, onDuplicated, onDeleted])
  return {
    assistant: useSelector(actor, (s) => s.context.assistant),
    models: useSelector(actor, (s) => s.context.models),
    documents: useSelector(actor, (s) => s.context.documents),
    folders: useSelector(actor, (s) => s.context.folders),
    foldersProblem: useSelector(actor, (s) => s.context.foldersProblem),
    driveOnServer: useSelector(actor, (s) => s.context.driveOnServer),
    status: useSelector(actor, (s) =>
      s.matches('loading')
        ? 'loading'
        : s.matches('missing')
          ? 'missing'
          : s.matches('failed')
            ? 'failed'
            : 'ready',
    ),
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    saving: useSelector(actor, (s) => s.matches('saving')),
    confirmingDelete: useSelector(actor, (s) => s.matches('confirmingDelete') || s.matches('deleting')),
    deleting: useSelector(actor, (s) => s.matches('deleting')),
    problem: useSelector(actor, (s) => s.context.problem),
    notice: useSelector(actor, (s) => s.context.notice),
    reload: () => actor.send({ type: 'editor.load' }),
    save: (fields: UpdateAssistantRequest) => actor.send({ type: 'editor.save', fields }),
    duplicate: () => actor.send({ type: 'editor.duplicate' }),
    askDelete: () => actor.send({ type: 'editor.askDelete' }),
    cancelDelete: () => actor.send({ type: 'editor.cancelDelete' }),
    confirmDelete: () => actor.send({ type: 'editor.confirmDelete' }),
    publish: usePublish(actor),
  }
}

export type AssistantEditor = ReturnType<typeof useAssistantEditor>
