/**
 * The Upload dialog (product §2, §5): closed, or open with no file, a rejected file (the reason to
 * show) or an accepted one. 'Upload' sends the file to the open conversation's upload call (it
 * lands in the person's library and is read at once, so the next question can use it) and
 * closes once the server has it. 'Upload to Drive' puts the file in the person's Google Drive
 * (which syncs it into the library) and stays open with the server's sentence on where it stands.
 * A refusal keeps the dialog open with the server's sentence. The calls come from
 * provideUploadMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { messageOf, notProvided, statusOf } from '#machines/shared/effects.ts'
import { type FileFacts, uploadError } from './upload-rules.ts'

export const UPLOAD_MESSAGES = {
  failed: 'Upload failed. Try again.',
  driveFailed: 'Upload to Google Drive failed. Try again.',
  noConversation: 'Open a conversation first: the file is added to it and to your library.',
} as const

export type UploadContext = {
  file: FileFacts | null
  /** The chosen file's bytes (a browser File); null until one is chosen. */
  content: Blob | null
  error: string | null
  /** After 'Upload to Drive': the server's sentence on where the file stands. */
  notice: string | null
}

export type UploadEvent =
  | { type: 'upload.open' }
  | { type: 'upload.close' }
  | { type: 'upload.choose'; file: FileFacts; content?: Blob }
  /** 'Upload to Drive' or 'Upload'; `conversationId`: the conversation on screen, if any. */
  | { type: 'upload.submit'; destination: 'drive' | 'chat'; conversationId?: string | null }

export type UploadInput = { conversationId: string; file: FileFacts; content: Blob }
export type DriveUploadInput = { file: FileFacts; content: Blob }

export type UploadDeps = {
  /** Sends the file to the conversation's upload call; resolves once the server stored it. */
  uploadFile: (input: UploadInput) => Promise<unknown>
  /** Sends the file to the person's Google Drive; resolves with the server's sentence. */
  uploadToDrive: (input: DriveUploadInput) => Promise<{ message: string }>
}

/** A 4xx carries the server's sentence (the spec's size and type rules); other failures get ours. */
function failureOf(error: unknown, fallback: string = UPLOAD_MESSAGES.failed): string {
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
    tags: {} as 'open' | 'ready' | 'uploading' | 'uploadingToDrive',
  },
  actors: {
    uploadFile: notProvided<unknown, UploadInput>('uploadFile'),
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
    setError: assign((_, params: { error: string }) => ({ error: params.error })),
    setNotice: assign((_, params: { notice: string }) => ({ notice: params.notice, error: null })),
  },
  guards: {
    isAcceptable: (_, params: { file: FileFacts }) => uploadError(params.file) === null,
    toConversation: ({ event }) =>
      event.type === 'upload.submit' && event.destination === 'chat' && Boolean(event.conversationId),
    toChatWithoutConversation: ({ event }) => event.type === 'upload.submit' && event.destination === 'chat',
  },
}).createMachine({
  id: 'upload',
  context: { file: null, content: null, error: null, notice: null },
  initial: 'closed',
  states: {
    closed: {
      entry: 'clearFile',
      on: { 'upload.open': 'open' },
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
              { guard: 'toConversation', target: 'uploading' },
              {
                guard: 'toChatWithoutConversation',
                actions: { type: 'setError', params: { error: UPLOAD_MESSAGES.noConversation } },
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
            onDone: '#upload.closed',
            onError: {
              target: 'accepted',
              actions: { type: 'setError', params: ({ event }) => ({ error: failureOf(event.error) }) },
            },
          },
          on: { 'upload.close': {}, 'upload.choose': {} },
          description: 'Waits for the server: closing or choosing another file is ignored meanwhile.',
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
      uploadFile: fromPromise(({ input }) => deps.uploadFile(input)),
      uploadToDrive: fromPromise(({ input }) => deps.uploadToDrive(input)),
    },
  })
}
