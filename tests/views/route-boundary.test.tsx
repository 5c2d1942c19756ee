import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { type ReactNode, Suspense } from 'react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { AppProviders } from '#src/app/providers.tsx'
import { RouteBoundary } from '#src/app/route-boundary.tsx'
import { createAppDeps } from '#src/lib/app-deps.ts'
import { retryableLazy } from '#src/lib/lazy-chunk.tsx'
import { server } from './msw-server.ts'

// A chunk that did not load fails its import with the browser's own words, naming the file.
const CHUNK_URL = `${window.location.origin}/assets/dashboard-view-0ld8u1ld.js`
const chunkError = () => new TypeError(`Failed to fetch dynamically imported module: ${CHUNK_URL}`)

beforeEach(() => {
  // React reports every error a boundary catches on the console; the app's logger is checked instead.
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => vi.restoreAllMocks())

function renderInApp(ui: ReactNode) {
  const log = { error: vi.fn(), warn: vi.fn() }
  const deps = { ...createAppDeps({ baseUrl: window.location.origin }), log }
  render(<AppProviders deps={deps}>{ui}</AppProviders>)
  return { user: userEvent.setup(), log }
}

function Page() {
  return <h1>The page</h1>
}

/**
 * A lazy page whose file fails to load `failures` times. The browser keeps a failed import, so a
 * retry imports the file again under a new address: `reimported` records those addresses.
 */
function flakyPage(failures: number) {
  let calls = 0
  const reimported: string[] = []
  const load = async () => {
    calls += 1
    if (calls <= failures) throw chunkError()
    return { Page }
  }
  const page = retryableLazy(
    load,
    (module) => module.Page,
    (url) => {
      reimported.push(url)
      return load()
    },
  )
  return { ...page, reimported }
}

/** The flaky page where the app puts the dashboard: behind the route's boundary, suspended while it loads. */
function LazyDashboard({ page }: { page: ReturnType<typeof flakyPage> }) {
  return (
    <RouteBoundary area="The dashboard" page onRetry={page.retry}>
      <Suspense fallback={<p>Loading...</p>}>
        <page.Lazy />
      </Suspense>
    </RouteBoundary>
  )
}

test('a page whose file did not load says so, logs it, and Try again loads it', async () => {
  server.use(http.head(CHUNK_URL, () => new HttpResponse(null, { status: 200 })))
  const page = flakyPage(1)
  const { user, log } = renderInApp(<LazyDashboard page={page} />)

  expect(await screen.findByRole('heading', { name: 'This page did not load' })).toBeTruthy()
  expect(screen.getByRole('alert').textContent).toContain('Check your internet connection, then try again.')
  expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy()
  expect(log.error).toHaveBeenCalledWith('The dashboard could not be loaded', expect.any(TypeError))
  expect(document.title).toBe('This page did not load · DocChat')

  await user.click(screen.getByRole('button', { name: 'Try again' }))

  expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy()
  expect(screen.queryByRole('alert')).toBeNull()
  expect(page.reimported).toEqual([`${CHUNK_URL}?retry=1`])
})

test('a page whose file is gone from the server (a newer version is out) asks for a reload', async () => {
  server.use(http.head(CHUNK_URL, () => new HttpResponse('Not found\n', { status: 404 })))
  const page = flakyPage(Number.POSITIVE_INFINITY)
  renderInApp(<LazyDashboard page={page} />)

  expect(await screen.findByRole('heading', { name: 'DocChat has been updated' })).toBeTruthy()
  expect(screen.getByRole('alert').textContent).toContain('Reload the page to get the new one.')
  expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy()
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
})

test('a part that breaks while showing says something went wrong, and Try again shows it again', async () => {
  let broken = true
  function Fragile() {
    if (broken) throw new Error('cannot read properties of undefined')
    return <p>Working again</p>
  }
  const { user, log } = renderInApp(
    <RouteBoundary area="The Settings section">
      <Fragile />
    </RouteBoundary>,
  )

  expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy()
  expect(log.error).toHaveBeenCalledWith('The Settings section failed to render', expect.any(Error))
  broken = false
  await user.click(screen.getByRole('button', { name: 'Try again' }))

  expect(screen.getByText('Working again')).toBeTruthy()
})
