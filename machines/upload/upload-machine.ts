/**
 * The Upload dialog (SPEC §2, §5): closed, or open with no file, a rejected file (the reason to
 * show) or an accepted one. Both upload buttons only close it: SPEC §2 says no upload call is
 * made yet, so nothing is injected and no effect exists to forget.
 */
import { assign, setup } from 'xstate'
import { type FileFacts, uploadError } from './upload-rules.ts'

export type UploadContext = { file: FileFacts | null; error: string | null }

export type UploadEvent =
  | { type: 'upload.open' }
  | { type: 'upload.close' }
  | { type: 'upload.choose'; file: FileFacts }
  /** 'Upload to Drive' or 'Upload'; both only close the dialog for now (SPEC §2). */
  | { type: 'upload.submit'; destination: 'drive' | 'chat' }

export const uploadMachine = setup({
  types: { context: {} as UploadContext, events: {} as UploadEvent, tags: {} as 'open' | 'ready' },
  actions: {
    storeFile: assign((_, params: { file: FileFacts }) => ({
      file: params.file,
      error: uploadError(params.file),
    })),
    clearFile: assign({ file: null, error: null }),
  },
  guards: {
    isAcceptable: (_, params: { file: FileFacts }) => uploadError(params.file) === null,
  },
}).createMachine({
  id: 'upload',
  context: { file: null, error: null },
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
            actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: '.rejected',
            actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
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
            'upload.submit': {
              target: '#upload.closed',
              description: 'SPEC §2: both buttons only close the dialog; no upload call is made.',
            },
          },
        },
      },
    },
  },
})
