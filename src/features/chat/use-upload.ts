/** Facade for the Upload dialog: its own small actor, living as long as the Chat view. */
import { useActorRef, useSelector } from '@xstate/react'
import { uploadMachine } from '#machines/upload/upload-machine.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

export type Upload = ReturnType<typeof useUpload>

export function useUpload() {
  const { inspect } = useAppDeps()
  const upload = useActorRef(uploadMachine, { inspect })
  return {
    isOpen: useSelector(upload, (snapshot) => snapshot.hasTag('open')),
    /** A valid file is chosen: the upload buttons are enabled. */
    ready: useSelector(upload, (snapshot) => snapshot.hasTag('ready')),
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
      upload.send({ type: 'upload.choose', file: { name: file.name, size: file.size, type: file.type } })
    },
    /** SPEC §2: both buttons only close the dialog; no upload call is made. */
    submit(destination: 'drive' | 'chat') {
      upload.send({ type: 'upload.submit', destination })
    },
  }
}
