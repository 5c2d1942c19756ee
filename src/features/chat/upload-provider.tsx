import { type ReactNode, useEffect, useState } from 'react'
import { provideUploadMachine } from '#machines/upload/upload-machine.ts'
import { uploadFile, uploadToLibrary } from '#src/api/documents.ts'
import { uploadToDrive } from '#src/api/drive.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { ChatActor } from './chat-actor.ts'
import { UploadActor } from './upload-actor.ts'
import { UploadDialog } from './upload-dialog.tsx'
import { useUpload } from './use-upload.ts'

/**
 * The Upload dialog for the whole dashboard: the chat's paperclip opens it for the conversation
 * on screen, the Documents section's 'Upload Document' for the library. Inside the chat's
 * provider: a file chosen in a new chat goes to its composer, and a file uploaded into a
 * conversation joins that conversation's files.
 */
export function UploadProvider({ children }: { children: ReactNode }) {
  const { inspect } = useAppDeps()
  const [logic] = useState(() =>
    provideUploadMachine({
      uploadFile: ({ conversationId, file, content }) =>
        uploadFile({ conversationId, name: file.name, content }),
      uploadToLibrary: ({ file, content }) => uploadToLibrary({ name: file.name, content }),
      uploadToDrive: ({ file, content }) => uploadToDrive({ name: file.name, content }),
    }),
  )
  return (
    <UploadActor.Provider logic={logic} options={{ inspect }}>
      <UploadToChat />
      {children}
      <OpenDialog />
    </UploadActor.Provider>
  )
}

/** What the dialog did, told to the chat: a file for the new chat's composer, or one uploaded into a conversation. */
function UploadToChat() {
  const upload = UploadActor.useActorRef()
  const chat = ChatActor.useActorRef()
  useEffect(() => {
    const subscriptions = [
      upload.on('upload.attached', ({ file, content }) => chat.send({ type: 'chat.attach', file, content })),
      upload.on('upload.uploaded', ({ conversationId, document }) => {
        if (conversationId) chat.send({ type: 'chat.fileAdded', conversationId, document })
      }),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }, [upload, chat])
  return null
}

function OpenDialog() {
  const upload = useUpload()
  return upload.isOpen ? <UploadDialog upload={upload} /> : null
}
