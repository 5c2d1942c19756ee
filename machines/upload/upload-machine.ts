/**
 * The Upload dialog (product §2, §5): closed, or open with no file, a rejected file (the reason to
 * show) or an accepted one. Opened from the chat, 'Upload' sends the file to the open
 * conversation's upload call (it lands in the person's library and is read at once, so the next
 * question can use it) and closes once the server has it; in a new chat it hands the file to the
 * composer instead (`upload.attached`: it goes with the first message, D88). Opened from the
 * Documents section, 'Upload' puts it in the library alone. 'Upload to Drive' puts the file in the
 * person's Google Drive (which syncs it into the library) and stays open with the server's
 * sentence on where it stands. A refusal keeps the dialog open with the server's sentence. What
 * was uploaded is emitted (`upload.uploaded`). The calls come from provideUploadMachine(deps).
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate'
import type { LibraryDocument } from '#contracts/documents.ts'
import { messageOf, notProvided, statusOf } from '#machines/shared/effects.ts'
import { type FileFacts, uploadError } from './upload-rules.ts'

export const UPLOAD_MESSAGES = {
  failed: 'Upload failed. Try again.',
  driveFailed: 'Upload to Google Drive failed. Try again.',
} as const

/** Where 'Upload' puts the file: the chat's conversation (or its first message), or the library alone. */
export type UploadPlace = 'chat' | 'library'

export type UploadContext = {
  /** Where the dialog was opened from, which says what 'Upload' does. */
  into: UploadPlace
  file: FileFacts | null
  /** The chosen file's bytes (a browser File); null until one is chosen. */
  content: Blob | null
  error: string | null
  /** After 'Upload to Drive': the server's sentence on where the file stands. */
  notice: string | null
}

export type UploadEvent =
  | { type: 'upload.open'; into?: UploadPlace }
  | { type: 'upload.close' }
  | { type: 'upload.choose'; file: FileFacts; content?: Blob }
  /** 'Upload to Drive' or 'Upload'; `conversationId`: the conversation on screen, if any. */
  | { type: 'upload.submit'; destination: 'drive' | 'chat'; conversationId?: string | null }

export type UploadInput = { conversationId: string; file: FileFacts; content: Blob }
export type DriveUploadInput = { file: FileFacts; content: Blob }

/** What the dialog tells the app: a file for the composer of a new chat, or a file uploaded. */
export type UploadEmitted =
  | { type: 'upload.attached'; file: FileFacts; content: Blob }
  | { type: 'upload.uploaded'; conversationId: string | null; document: LibraryDocument }

export type UploadDeps = {
  /** Sends the file to the conversation's upload call; resolves once the server stored it. */
  uploadFile: (input: UploadInput) => Promise<LibraryDocument>
  /** Sends the file to the library alone (the Documents section). */
  uploadToLibrary: (input: DriveUploadInput) => Promise<LibraryDocument>
  /** Sends the file to the person's Google Drive; resolves with the server's sentence. */
  uploadToDrive: (input: DriveUploadInput) => Promise<{ message: string }>
}

/** A 4xx carries the server's sentence (the spec's size and type rules); other failures get ours. */
export function failureOf(error: unknown, fallback: string = UPLOAD_MESSAGES.failed): string {
  const status = statusOf(error)
  if (status !== undefined && status >= 400 && status < 500) return messageOf(error) ?? fallback
  // 503 carries a sentence too ("Google Drive is not configured…", "…busy right now…").
  if (status === 503) return messageOf(error) ?? fallback
  return fallback
}

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    emitted: {} as UploadEmitted,
    tags: {} as 'open' | 'ready' | 'uploading' | 'uploadingToDrive',
  },
  actors: {
    uploadFile: notProvided<{ conversationId: string; document: LibraryDocument }, UploadInput>('uploadFile'),
    uploadToLibrary: notProvided<LibraryDocument, DriveUploadInput>('uploadToLibrary'),
    uploadToDrive: notProvided<{ message: string }, DriveUploadInput>('uploadToDrive'),
  },
  actions: {
    storeFile: assign((_, params: { file: FileFacts; content: Blob | null }) => ({
      file: params.file,
      content: params.content,
      error: uploadError(params.file),
      notice: null,
    })),
    clearFile: assign({ file: null, content: null, error: null, notice: null }),
    storePlace: assign((_, params: { into: UploadPlace }) => ({ into: params.into })),
    handOver: emit(({ context }) => {
      if (!context.file || !context.content) throw new Error('Attaching needs an accepted file')
      return { type: 'upload.attached' as const, file: context.file, content: context.content }
    }),
    setError: assign((_, params: { error: string }) => ({ error: params.error })),
    setNotice: assign((_, params: { notice: string }) => ({ notice: params.notice, error: null })),
  },
  guards: {
    isAcceptable: (_, params: { file: FileFacts }) => uploadError(params.file) === null,
    toLibrary: ({ context, event }) =>
      event.type === 'upload.submit' && event.destination === 'chat' && context.into === 'library',
    toConversation: ({ event }) =>
      event.type === 'upload.submit' && event.destination === 'chat' && Boolean(event.conversationId),
    toNewChat: ({ event }) => event.type === 'upload.submit' && event.destination === 'chat',
  },
}).createMachine({
  id: 'upload',
  context: { into: 'chat', file: null, content: null, error: null, notice: null },
  initial: 'closed',
  states: {
    closed: {
      entry: 'clearFile',
      on: {
        'upload.open': {
          target: 'open',
          actions: { type: 'storePlace', params: ({ event }) => ({ into: event.into ?? 'chat' }) },
        },
      },
    },
    open: {
      tags: 'open',
      initial: 'empty',
      on: {
        'upload.close': 'closed',
        'upload.choose': [
          {
            guard: { type: 'isAcceptable', params: ({ event }) => ({ file: event.file }) },
            target: '.accepted',
            actions: {
              type: 'storeFile',
              params: ({ event }) => ({ file: event.file, content: event.content ?? null }),
            },
          },
          {
            target: '.rejected',
            actions: {
              type: 'storeFile',
              params: ({ event }) => ({ file: event.file, content: event.content ?? null }),
            },
          },
        ],
      },
      states: {
        empty: {},
        rejected: {
          description: 'The file name and the reason are shown; the upload buttons stay disabled.',
        },
        accepted: {
          tags: 'ready',
          on: {
            'upload.submit': [
              { guard: 'toLibrary', target: 'uploadingToLibrary' },
              { guard: 'toConversation', target: 'uploading' },
              {
                guard: 'toNewChat',
                target: '#upload.closed',
                actions: 'handOver',
                description:
                  'A new chat has no conversation yet: the file waits in the composer and goes with the first message.',
              },
              { target: 'uploadingToDrive' },
            ],
          },
        },
        uploading: {
          tags: 'uploading',
          invoke: {
            src: 'uploadFile',
            input: ({ context, event }) => {
              assertEvent(event, 'upload.submit')
              if (!context.file || !context.content || !event.conversationId) {
                throw new Error('An upload needs an accepted file and a conversation')
              }
              return { conversationId: event.conversationId, file: context.file, content: context.content }
            },
            onDone: {
              target: '#upload.closed',
              actions: emit(({ event }) => ({
                type: 'upload.uploaded' as const,
                conversationId: event.output.conversationId,
                document: event.output.document,
              })),
            },
            onError: {
              target: 'accepted',
              actions: { type: 'setError', params: ({ event }) => ({ error: failureOf(event.error) }) },
            },
          },
          on: { 'upload.close': {}, 'upload.choose': {} },
          description: 'Waits for the server: closing or choosing another file is ignored meanwhile.',
        },
        uploadingToLibrary: {
          tags: 'uploading',
          invoke: {
            src: 'uploadToLibrary',
            input: ({ context }) => {
              if (!context.file || !context.content) throw new Error('An upload needs an accepted file')
              return { file: context.file, content: context.content }
            },
            onDone: {
              target: '#upload.closed',
              actions: emit(({ event }) => ({
                type: 'upload.uploaded' as const,
                conversationId: null,
                document: event.output,
              })),
            },
            onError: {
              target: 'accepted',
              actions: { type: 'setError', params: ({ event }) => ({ error: failureOf(event.error) }) },
            },
          },
          on: { 'upload.close': {}, 'upload.choose': {} },
        },
        uploadingToDrive: {
          tags: 'uploadingToDrive',
          invoke: {
            src: 'uploadToDrive',
            input: ({ context }) => {
              if (!context.file || !context.content) throw new Error('An upload needs an accepted file')
              return { file: context.file, content: context.content }
            },
            onDone: {
              target: 'sent',
              actions: { type: 'setNotice', params: ({ event }) => ({ notice: event.output.message }) },
            },
            onError: {
              target: 'accepted',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: failureOf(event.error, UPLOAD_MESSAGES.driveFailed) }),
              },
            },
          },
          on: { 'upload.close': {}, 'upload.choose': {} },
          description: 'Waits for Drive and the sync: closing or choosing another file is ignored meanwhile.',
        },
        sent: {
          description:
            "The file is in Drive: the server's sentence says where it stands in the library. Sending it again would add a second copy, so the buttons wait for another file.",
        },
      },
    },
  },
})

export function provideUploadMachine(deps: UploadDeps) {
  return uploadMachine.provide({
    actors: {
      uploadFile: fromPromise(async ({ input }) => ({
        conversationId: input.conversationId,
        document: await deps.uploadFile(input),
      })),
      uploadToLibrary: fromPromise(({ input }) => deps.uploadToLibrary(input)),
      uploadToDrive: fromPromise(({ input }) => deps.uploadToDrive(input)),
    },
  })
}
