/**
 * Graceful shutdown on a real socket (D41): a request in flight completes, a stream that
 * listens to `app.shutdown` ends itself with a last line, a stream that does not is cut once the
 * grace period is over, and nothing new is accepted.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { closeGracefully } from '#server/operations/shutdown.ts'
import { buildTestApp } from '../support/helper.ts'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** Resolved once /test/slow's handler runs: from then on its request is truly in flight. */
let slowStarted = Promise.withResolvers<void>()

/** An app with three test routes, listening on a loopback port. */
async function listening(): Promise<{ app: App; base: string }> {
  const built = await buildTestApp()
  slowStarted = Promise.withResolvers<void>()
  built.get('/test/slow', async () => {
    slowStarted.resolve()
    await sleep(300)
    return { done: true }
  })
  built.get('/test/polite-stream', (_request, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    reply.raw.write('data: first\n\n')
    built.shutdown.addEventListener('abort', () => reply.raw.end('data: bye\n\n'), { once: true })
  })
  built.get('/test/stubborn-stream', (_request, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    reply.raw.write('data: first\n\n')
  })
  app = built
  return { app: built, base: await built.listen({ host: '127.0.0.1', port: 0 }) }
}

/** Starts a streaming GET and resolves once its first chunk arrived; `rest` is what follows. */
async function openStream(url: string) {
  const response = await fetch(url)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const first = decoder.decode((await reader.read()).value)
  const rest = (async () => {
    let text = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return { text, ended: 'cleanly' as const }
        text += decoder.decode(value)
      }
    } catch {
      return { text, ended: 'cut' as const }
    }
  })()
  return { first, rest }
}

test('a request in flight when shutdown starts still gets its answer; then nothing is accepted', async () => {
  const { app, base } = await listening()
  const inFlight = fetch(`${base}/test/slow`)
  await slowStarted.promise
  const report = await closeGracefully(app, { graceMs: 5_000 })
  const response = await inFlight
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ done: true })
  expect(report.cut).toBe(false)
  await expect(fetch(`${base}/test/slow`)).rejects.toThrow()
})

test('a stream that listens to app.shutdown ends with its last line, well before the grace period', async () => {
  const { app, base } = await listening()
  const stream = await openStream(`${base}/test/polite-stream`)
  expect(stream.first).toBe('data: first\n\n')
  const report = await closeGracefully(app, { graceMs: 5_000 })
  expect(await stream.rest).toEqual({ text: 'data: bye\n\n', ended: 'cleanly' })
  expect(report.cut).toBe(false)
  expect(report.ms).toBeLessThan(5_000)
})

test('a stream that never ends is cut once the grace period is over, and the app still closes', async () => {
  const { app, base } = await listening()
  const stream = await openStream(`${base}/test/stubborn-stream`)
  const report = await closeGracefully(app, { graceMs: 300 })
  expect(report.cut).toBe(true)
  expect(report.ms).toBeGreaterThanOrEqual(300)
  expect((await stream.rest).ended).toBe('cut')
})
