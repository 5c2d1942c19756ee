import './index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppProviders } from '#src/app/providers.tsx'
import { AppRoutes } from '#src/app/routes.tsx'
import { createAppDeps, type Inspect } from '#src/lib/app-deps.ts'
import { applyTheme, readTheme } from '#src/lib/theme.ts'

/**
 * Opt-in XState inspector, development only (VITE_XSTATE_INSPECT=1). The DEV check is replaced
 * by `false` in production builds, so the import below never reaches the bundle.
 */
async function loadInspector(): Promise<Inspect> {
  if (!import.meta.env.DEV || import.meta.env.VITE_XSTATE_INSPECT !== '1') return undefined
  const { createBrowserInspector } = await import('@statelyai/inspect')
  return createBrowserInspector().inspect
}

async function start() {
  // Before the first paint: a page chosen dark never flashes light (D136).
  applyTheme(readTheme())
  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  const deps = createAppDeps({}, await loadInspector())
  createRoot(container).render(
    <StrictMode>
      <AppProviders deps={deps}>
        <AppRoutes />
      </AppProviders>
    </StrictMode>,
  )
}

void start()
