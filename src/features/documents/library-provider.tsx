import { useState } from 'react'
import { provideLibraryMachine } from '#machines/library/library-machine.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

/**
 * The library's logic with its calls filled, built from the app's one HTTP client. The dashboard's
 * wiring actor runs it for the dashboard's lifetime (D112); it reads the library only while
 * Documents is on screen, and polls only while needed.
 */
export function useLibraryLogic() {
  const { http } = useAppDeps()
  const [logic] = useState(() => provideLibraryMachine(createDocumentsApi(http)))
  return logic
}
