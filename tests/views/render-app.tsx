/** Renders the real app (providers, routes, machines) at a path, on wouter's memory location. */
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { vi } from 'vitest'
import { memoryLocation } from 'wouter/memory-location'
import { AppProviders } from '#src/app/providers.tsx'
import { AppRoutes } from '#src/app/routes.tsx'
import { createAppDeps, type Inspect } from '#src/lib/app-deps.ts'

/** `inspect`: an XState inspector, injected exactly as main.tsx injects the browser one. */
export function renderApp(path: string, { inspect }: { inspect?: Inspect } = {}) {
  const memory = memoryLocation({ path, record: true })
  const log = { error: vi.fn(), warn: vi.fn() }
  const deps = { ...createAppDeps({ baseUrl: window.location.origin }, inspect), log }
  const user = userEvent.setup()
  render(
    <StrictMode>
      <AppProviders deps={deps} locationHook={memory.hook}>
        <AppRoutes />
      </AppProviders>
    </StrictMode>,
  )
  return {
    user,
    log,
    /** Every entry of the memory history; a replace overwrites the last one. */
    history: memory.history,
    currentPath: () => memory.history.at(-1),
  }
}
