/**
 * Facade for the Upload dialog: its own small actor, living as long as the Chat view. 'Upload'
 * sends the file to the conversation on screen (its id comes from the chat actor); 'Upload to
 * Drive' to the person's Google Drive.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import { provideUploadMachine } from '#machines/upload/upload-machine.ts'
import { uploadFile } from '#src/api/documents.ts'
import { uploadToDrive } from '#src/api/drive.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { ChatActor } from './chat-actor.ts'

export type Upload = ReturnType<typeof useUpload>

export function useUpload() {
  const { inspect } = useAppDeps()
  const [logic] = useState(() =>
    provideUploadMachine({
      uploadFile: ({ conversationId, file, content }) =>
        uploadFile({ conversationId, name: file.name, content }),
      uploadToDrive: ({ file, content }) => uploadToDrive({ name: file.name, content }),
    }),
  )
  const upload = useActorRef(logic, { inspect })
  const conversationId = ChatActor.useSelector((snapshot) => snapshot.context.selectedConversationId)
  return {
    isOpen: useSelector(upload, (snapshot) => snapshot.hasTag('open')),
    /** A valid file is chosen and nothing is under way: the upload buttons are enabled. */
    ready: useSelector(upload, (snapshot) => snapshot.hasTag('ready')),
    uploading: useSelector(upload, (snapshot) => snapshot.hasTag('uploading')),
    uploadingToDrive: useSelector(upload, (snapshot) => snapshot.hasTag('uploadingToDrive')),
    /** After 'Upload to Drive': where the file stands (the server's sentence). */
    notice: useSelector(upload, (snapshot) => snapshot.context.notice),
    fileName: useSelector(upload, (snapshot) => snapshot.context.file?.name),
    error: useSelector(upload, (snapshot) => snapshot.context.error),
    open() {
      upload.send({ type: 'upload.open' })
    },
    close() {
      upload.send({ type: 'upload.close' })
    },
    choose(file: File | undefined) {
      if (!file) return
      upload.send({
        type: 'upload.choose',
        file: { name: file.name, size: file.size, type: file.type },
        content: file,
      })
    },
    /** 'Upload' sends the file to the open conversation; 'Upload to Drive' to the person's Drive. */
    submit(destination: 'drive' | 'chat') {
      upload.send({ type: 'upload.submit', destination, conversationId })
    },
  }
}
