import { type ReactNode, useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import { provideUploadMachine, type uploadMachine } from '#machines/upload/upload-machine.ts'
import { uploadFile, uploadToLibrary } from '#src/api/documents.ts'
import { uploadToDrive } from '#src/api/drive.ts'
import { UploadActor } from './upload-actor.ts'
import { UploadDialog } from './upload-dialog.tsx'
import { useUpload } from './use-upload.ts'

/**
 * The Upload dialog's logic with its calls filled. The dashboard's wiring actor runs it for the
 * dashboard's lifetime and tells the chat what it did (D112): a file chosen in a new chat goes to
 * its composer, and a file uploaded into a conversation joins that conversation's files.
 */
export function useUploadLogic() {
  const [logic] = useState(() =>
    provideUploadMachine({
      uploadFile: ({ conversationId, file, content }) =>
        uploadFile({ conversationId, name: file.name, content }),
      uploadToLibrary: ({ file, content }) => uploadToLibrary({ name: file.name, content }),
      uploadToDrive: ({ file, content }) => uploadToDrive({ name: file.name, content }),
    }),
  )
  return logic
}

/**
 * The Upload dialog for the whole dashboard: the chat's paperclip opens it for the conversation
 * on screen, the Documents section's 'Upload Document' for the library. Inside the chat's
 * provider (the dialog reads the conversation on screen).
 */
export function UploadProvider({
  actor,
  driveOffered,
  children,
}: {
  actor: ActorRefFrom<typeof uploadMachine>
  /** false on a server without Google Drive (D133): the dialog offers no 'Upload to Drive'. */
  driveOffered: boolean
  children: ReactNode
}) {
  return (
    <UploadActor.Provider actor={actor}>
      {children}
      <OpenDialog driveOffered={driveOffered} />
    </UploadActor.Provider>
  )
}

function OpenDialog({ driveOffered }: { driveOffered: boolean }) {
  const upload = useUpload()
  return upload.isOpen ? <UploadDialog upload={upload} driveOffered={driveOffered} /> : null
}
