import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { buildTestApp } from '../support/helper.ts'

// Short limits so a test sees them act; the defaults are in server/http/server-timeouts.ts.
const TIMEOUTS = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 900,
  keepAliveTimeoutMs: 400,
  connectionTimeoutMs: 5_000,
  checkIntervalMs: 100,
}
let app: App
let port: number

beforeAll(async () => {
  app = await buildTestApp({ timeouts: TIMEOUTS })
  // A response that takes far longer than the request limit, sent a little at a time.
  app.get('/slow-stream', (_request, reply) => {
    let sent = 0
    const body = new Readable({ read() {} })
    const timer = setInterval(() => {
      sent++
      body.push(`chunk ${sent}\n`)
      if (sent === 8) {
        clearInterval(timer)
        body.push(null)
      }
    }, 250)
    return reply.type('text/plain').send(body)
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  port = (app.server.address() as { port: number }).port
})
afterAll(async () => {
  await app.close()
})

async function openSocket(): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port })
  await once(socket, 'connect')
  return socket
}

/** Milliseconds until the server closes `socket`; fails the test after `limitMs`. */
async function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = performance.now()
  socket.on('data', () => undefined)
  socket.on('error', () => undefined)
  const closed = once(socket, 'close')
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`socket still open after ${limitMs} ms`)), limitMs).unref(),
  )
  await Promise.race([closed, timeout])
  return performance.now() - started
}

test('a client that dribbles its headers and never ends them is disconnected', async () => {
  const socket = await openSocket()
  socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n')
  const dribble = setInterval(() => socket.write('X-Slow: a\r\n'), 100)
  try {
    expect(await closedWithin(socket, 3_000)).toBeGreaterThanOrEqual(500)
  } finally {
    clearInterval(dribble)
    socket.destroy()
  }
}, 10_000)

/** Everything the server writes to `socket` until it closes it. */
async function answerOf(socket: Socket): Promise<string> {
  let text = ''
  socket.on('data', (chunk) => {
    text += String(chunk)
  })
  socket.on('error', () => undefined)
  await new Promise((resolve) => socket.on('close', resolve))
  return text
}

test('a request too slow to arrive is answered 408 in our envelope with our headers, then closed', async () => {
  const socket = await openSocket()
  socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n')
  const dribble = setInterval(() => socket.writable && socket.write('X-Slow: a\r\n'), 100)
  socket.once('data', () => clearInterval(dribble))
  try {
    const answer = await answerOf(socket)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff')
    expect(
      answer.endsWith(JSON.stringify({ success: false, message: 'The request took too long to arrive' })),
    ).toBe(true)
  } finally {
    clearInterval(dribble)
    socket.destroy()
  }
}, 10_000)

test('bytes that are not HTTP are answered 400 in our envelope with our headers', async () => {
  const socket = await openSocket()
  socket.write('NOT HTTP AT ALL\r\n\r\n')
  const answer = await answerOf(socket)
  expect(answer).toMatch(/^HTTP\/1\.1 400 /)
  expect(answer.toLowerCase()).toContain("content-security-policy: default-src 'none'")
  expect(answer.endsWith(JSON.stringify({ success: false, message: 'The request is not valid HTTP' }))).toBe(
    true,
  )
}, 10_000)

test('a connection that never sends a byte is disconnected', async () => {
  const socket = await openSocket()
  try {
    await closedWithin(socket, 3_000)
  } finally {
    socket.destroy()
  }
}, 10_000)

test('a client that dribbles its body and never ends it is disconnected', async () => {
  const socket = await openSocket()
  socket.write(
    'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  )
  const dribble = setInterval(() => socket.write(' '), 100)
  try {
    expect(await closedWithin(socket, 3_000)).toBeGreaterThanOrEqual(800)
  } finally {
    clearInterval(dribble)
    socket.destroy()
  }
}, 10_000)

test('an idle kept-alive connection is closed after its answer', async () => {
  const socket = await openSocket()
  socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n')
  try {
    await closedWithin(socket, 3_000)
  } finally {
    socket.destroy()
  }
}, 10_000)

test('a response that streams for longer than the request limit still arrives whole', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/slow-stream`)
  const text = await response.text()
  expect(text.split('\n').filter(Boolean)).toEqual(Array.from({ length: 8 }, (_, i) => `chunk ${i + 1}`))
}, 10_000)
