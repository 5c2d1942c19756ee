/**
 * Facade for the Upload dialog (one actor for the dashboard, upload-provider.tsx). Opened from the
 * chat, 'Upload' sends the file to the conversation on screen (its id comes from the chat actor),
 * or in a new chat hands it to the composer; opened from Documents, to the library. 'Upload to
 * Drive' sends it to the person's Google Drive.
 */
import { useSelector } from '@xstate/react'
import { selectedConversationIdOf } from '#machines/chat/chat-selectors.ts'
import type { UploadPlace } from '#machines/upload/upload-machine.ts'
import { ChatActor } from './chat-actor.ts'
import { UploadActor } from './upload-actor.ts'

export type Upload = ReturnType<typeof useUpload>

/** The dialog's one line on what each button does, for where it was opened (D88). */
export const UPLOAD_EXPLANATIONS = {
  conversation:
    'Upload adds the file to this conversation and your library; Upload to Drive puts it in your Google Drive, which syncs it into your library.',
  newChat:
    'Upload attaches the file to your first message (it joins your library too); Upload to Drive puts it in your Google Drive, which syncs it into your library.',
  library:
    'Upload adds the file to your library; Upload to Drive puts it in your Google Drive, which syncs it into your library.',
} as const

/** The same, on a server without Google Drive (D133): no 'Upload to Drive' to explain. */
export const UPLOAD_EXPLANATIONS_WITHOUT_DRIVE = {
  conversation: 'Upload adds the file to this conversation and your library.',
  newChat: 'Upload attaches the file to your first message; it joins your library too.',
  library: 'Upload adds the file to your library.',
} as const satisfies Record<keyof typeof UPLOAD_EXPLANATIONS, string>

export function useUpload() {
  const upload = UploadActor.useActorRef()
  const conversationId = ChatActor.useSelector(selectedConversationIdOf)
  const into = useSelector(upload, (snapshot) => snapshot.context.into)
  return {
    /** Where 'Upload' puts the file, which the dialog's explanation names. */
    place: (into === 'library'
      ? 'library'
      : conversationId
        ? 'conversation'
        : 'newChat') as keyof typeof UPLOAD_EXPLANATIONS,
    isOpen: useSelector(upload, (snapshot) => snapshot.hasTag('open')),
    /** A valid file is chosen and nothing is under way: the upload buttons are enabled. */
    ready: useSelector(upload, (snapshot) => snapshot.hasTag('ready')),
    uploading: useSelector(upload, (snapshot) => snapshot.hasTag('uploading')),
    uploadingToDrive: useSelector(upload, (snapshot) => snapshot.hasTag('uploadingToDrive')),
    /** After 'Upload to Drive': where the file stands (the server's sentence). */
    notice: useSelector(upload, (snapshot) => snapshot.context.notice),
    fileName: useSelector(upload, (snapshot) => snapshot.context.file?.name),
    error: useSelector(upload, (snapshot) => snapshot.context.error),
    /** Opens the dialog for the chat (the paperclip) or the library (the Documents section). */
    open(into: UploadPlace = 'chat') {
      upload.send({ type: 'upload.open', into })
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
    /** 'Upload' sends the file where the dialog was opened for; 'Upload to Drive' to the person's Drive. */
    submit(destination: 'drive' | 'chat') {
      upload.send({ type: 'upload.submit', destination, conversationId })
    },
  }
}
