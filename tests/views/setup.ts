import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { server } from './msw-server.ts'

// MSW 3 names this option onUnhandledFrame (onUnhandledRequest in MSW 2). 'error' makes the call
// reject, but the app turns a rejected call into a message, so the test is also failed below.
// The first screen of a file waits for the lazily loaded dashboard, which Vite transforms on first
// import: over a second on a loaded machine, so findBy* waits up to 5 s (the default is 1 s). A
// screen that never appears still fails, only later.
configure({ asyncUtilTimeout: 5_000 })

// jsdom has no layout, so no ResizeObserver; Ark UI's menus (floating-ui) watch their trigger's
// size with one. Nothing ever resizes here: an observer that never reports is the truth.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const unhandled: string[] = []

beforeAll(() =>
  server.listen({
    onUnhandledFrame({ frame, defaults }) {
      const { request } = frame.data as { request?: Request }
      unhandled.push(request ? `${request.method} ${request.url}` : frame.protocol)
      defaults.error()
    },
  }),
)
afterEach(() => {
  cleanup()
  server.resetHandlers()
  const calls = unhandled.splice(0)
  if (calls.length > 0) throw new Error(`Requests without an MSW handler: ${calls.join(', ')}`)
})
afterAll(() => server.close())
