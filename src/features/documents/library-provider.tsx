import { type ReactNode, useState } from 'react'
import { provideLibraryMachine } from '#machines/library/library-machine.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { LibraryActor } from './library-actor.ts'

/** Starts the library actor while the Documents screen is on show (it polls only while needed). */
export function LibraryProvider({ children }: { children: ReactNode }) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => provideLibraryMachine(createDocumentsApi(http)))
  return (
    <LibraryActor.Provider logic={logic} options={{ inspect, input: {} }}>
      {children}
    </LibraryActor.Provider>
  )
}
