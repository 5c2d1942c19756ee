/**
 * One assistant's page (issue 36): loads the assistant with what its form offers (the models the
 * operator allows, the person's documents, the connected Drive's folders), then saves an edit,
 * duplicates it (the app opens the copy: emitted `editor.duplicated`) or deletes it once the
 * person confirmed (its conversations stay: emitted `editor.deleted`). One change at a time; a
 * failed one keeps the page with a sentence. Its Publish panel is a child (publish-machine.ts,
 * issue 37) that hands back what it saved. Calls are injected with provideAssistantEditorMachine(deps).
 */
import { assign, emit, fromPromise, setup, spawnChild } from 'xstate'
import {
  ASSISTANT_NAME_MAX_LENGTH,
  type Assistant,
  type CreateAssistantRequest,
  type DriveFolder,
  type UpdateAssistantRequest,
} from '#contracts/assistants.ts'
import { notProvided, statusOf } from '#machines/shared/effects.ts'
import { ASSISTANT_MESSAGES, copyName, sentenceOf } from './assistant-messages.ts'
import { type PublishDeps, providePublishMachine, publishMachine } from './publish-machine.ts'

/** A document the knowledge picker offers. */
export type PickableDocument = { id: string; name: string }

export type EditorPage = {
  assistant: Assistant
  models: string[]
  documents: PickableDocument[]
  /** null: the Drive's folders could not be listed (not connected, or it failed): `foldersProblem` says why. */
  folders: DriveFolder[] | null
  foldersProblem: string | null
  /** false: this server has no Google Drive (D133), so folders are not offered at all. */
  driveOnServer: boolean
}

export type AssistantEditorContext = Omit<EditorPage, 'assistant'> & {
  assistantId: string
  assistant: Assistant | null
  problem: string | null
  /** "Saved." after a save, until the next change starts. */
  notice: string | null
}

export type AssistantEditorEvent =
  | { type: 'editor.load' }
  | { type: 'editor.save'; fields: UpdateAssistantRequest }
  | { type: 'editor.duplicate' }
  | { type: 'editor.askDelete' }
  | { type: 'editor.cancelDelete' }
  | { type: 'editor.confirmDelete' }
  | { type: 'editor.replaced'; assistant: Assistant }
  | { type: 'editor.secretMade' }

export type AssistantEditorEmitted =
  | { type: 'editor.duplicated'; assistantId: string }
  | { type: 'editor.deleted'; assistantId: string }

export type AssistantEditorDeps = {
  get: (id: string) => Promise<Assistant>
  options: () => Promise<{ models: string[] }>
  documents: () => Promise<PickableDocument[]>
  driveFolders: () => Promise<DriveFolder[]>
  update: (id: string, fields: UpdateAssistantRequest) => Promise<Assistant>
  create: (fields: CreateAssistantRequest) => Promise<Assistant>
  remove: (id: string) => Promise<void>
} & Pick<PublishDeps, 'rotateIdentitySecret'>

export const FOLDERS_PROBLEM = 'Could not list your Google Drive folders.'

/** A copy of the assistant as it is saved: every field, its name marked as a copy. */
export function copyOf(assistant: Assistant): CreateAssistantRequest {
  return {
    name: copyName(assistant.name, ASSISTANT_NAME_MAX_LENGTH),
    description: assistant.description,
    instructions: assistant.instructions,
    knowledge: { documentIds: assistant.knowledge.documentIds, folderIds: assistant.knowledge.folderIds },
    starterQuestions: assistant.starterQuestions,
    answerPolicy: assistant.answerPolicy,
    fallbackAnswer: assistant.fallbackAnswer,
    temperature: assistant.temperature,
    maxAnswerTokens: assistant.maxAnswerTokens,
    model: assistant.model,
  }
}

const failed = (fallback: string) => ({
  type: 'storeProblem' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
})

export const assistantEditorMachine = setup({
  types: {
    context: {} as AssistantEditorContext,
    events: {} as AssistantEditorEvent,
    emitted: {} as AssistantEditorEmitted,
    input: {} as { assistantId: string },
  },
  actors: {
    load: notProvided<EditorPage, { id: string }>('load'),
    update: notProvided<Assistant, { id: string; fields: UpdateAssistantRequest }>('update'),
    create: notProvided<Assistant, CreateAssistantRequest>('create'),
    remove: notProvided<void, { id: string }>('remove'),
    publish: publishMachine,
  },
  actions: {
    storeProblem: assign((_, params: { error: unknown; fallback: string }) => ({
      problem: sentenceOf(params.error, params.fallback),
    })),
    clearProblem: assign({ problem: null, notice: null }),
  },
  guards: { isMissing: ({ event }) => 'error' in event && statusOf(event.error) === 404 },
}).createMachine({
  id: 'assistantEditor',
  context: ({ input }) => ({
    assistantId: input.assistantId,
    assistant: null,
    models: [],
    documents: [],
    folders: null,
    foldersProblem: null,
    driveOnServer: true,
    problem: null,
    notice: null,
  }),
  initial: 'loading',
  on: {
    'editor.replaced': { actions: assign({ assistant: ({ event }) => event.assistant }) },
    'editor.secretMade': {
      actions: assign({
        assistant: ({ context }) => context.assistant && { ...context.assistant, hasIdentitySecret: true },
      }),
    },
  },
  states: {
    loading: {
      tags: 'loading',
      entry: 'clearProblem',
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.assistantId }),
        onDone: {
          target: 'ready',
          actions: [
            assign(({ event }) => event.output),
            spawnChild('publish', {
              id: 'publish',
              input: ({ context }) => ({
                assistantId: context.assistantId,
                hasSecret: context.assistant?.hasIdentitySecret ?? false,
              }),
            }),
          ],
        },
        onError: [
          { guard: 'isMissing', target: 'missing' },
          { target: 'failed', actions: failed(ASSISTANT_MESSAGES.loadOne) },
        ],
      },
    },
    missing: {},
    failed: { on: { 'editor.load': 'loading' } },
    ready: {
      on: {
        'editor.save': 'saving',
        'editor.duplicate': 'duplicating',
        'editor.askDelete': { target: 'confirmingDelete', actions: 'clearProblem' },
      },
    },
    saving: {
      tags: 'busy',
      entry: 'clearProblem',
      invoke: {
        src: 'update',
        input: ({ context, event }) => ({
          id: context.assistantId,
          fields: event.type === 'editor.save' ? event.fields : {},
        }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ assistant: event.output, notice: ASSISTANT_MESSAGES.saved })),
        },
        onError: { target: 'ready', actions: failed(ASSISTANT_MESSAGES.save) },
      },
    },
    duplicating: {
      tags: 'busy',
      entry: 'clearProblem',
      invoke: {
        src: 'create',
        input: ({ context }) => copyOf(context.assistant as Assistant),
        onDone: {
          target: 'ready',
          actions: emit(({ event }) => ({
            type: 'editor.duplicated' as const,
            assistantId: event.output._id,
          })),
        },
        onError: { target: 'ready', actions: failed(ASSISTANT_MESSAGES.duplicate) },
      },
    },
    confirmingDelete: {
      on: { 'editor.cancelDelete': 'ready', 'editor.confirmDelete': 'deleting' },
      description: 'Deleting is asked first: its conversations stay, marked as with a deleted assistant.',
    },
    deleting: {
      tags: ['busy', 'confirming'],
      invoke: {
        src: 'remove',
        input: ({ context }) => ({ id: context.assistantId }),
        onDone: {
          target: 'deleted',
          actions: emit(({ context }) => ({
            type: 'editor.deleted' as const,
            assistantId: context.assistantId,
          })),
        },
        onError: { target: 'confirmingDelete', actions: failed(ASSISTANT_MESSAGES.remove) },
      },
    },
    deleted: { type: 'final' },
  },
})

/** The page's calls: the assistant, its options and the picker's lists load together; Drive may fail alone. */
export function provideAssistantEditorMachine(deps: AssistantEditorDeps) {
  return assistantEditorMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        const folders = deps.driveFolders().then(
          (list) => ({ folders: list, foldersProblem: null, driveOnServer: true }),
          (error: unknown) =>
            statusOf(error) === 503
              ? { folders: null, foldersProblem: null, driveOnServer: false }
              : { folders: null, foldersProblem: sentenceOf(error, FOLDERS_PROBLEM), driveOnServer: true },
        )
        const [assistant, options, documents, drive] = await Promise.all([
          deps.get(input.id),
          deps.options(),
          deps.documents(),
          folders,
        ])
        return { assistant, models: options.models, documents, ...drive }
      }),
      update: fromPromise(({ input }) => deps.update(input.id, input.fields)),
      create: fromPromise(({ input }) => deps.create(input)),
      remove: fromPromise(({ input }) => deps.remove(input.id)),
      publish: providePublishMachine(deps),
    },
  })
}
