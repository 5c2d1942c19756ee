import { useState } from 'react'
import { provideDocumentsMachine } from '#machines/documents/documents-machine.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

/**
 * The documents actor's logic (the person's library) with its calls filled, built from the app's one HTTP client. The dashboard's
 * wiring actor runs it for the dashboard's lifetime (D112); it reads the library only while
 * Documents is on screen, and polls only while needed.
 */
export function useDocumentsLogic() {
  const { http } = useAppDeps()
  const [logic] = useState(() => provideDocumentsMachine(createDocumentsApi(http)))
  return logic
}
