import type { FastifyReply, FastifyRequest } from 'fastify'
import pino from 'pino'
import { expect, test } from 'vitest'
import { lazyLogger, RequestLines } from '#server/request-logger.ts'
import { buildTestApp } from './helper.ts'

type Line = { level: number; msg: string; reqId?: string; extra?: string }

function recordingLogger(level: string) {
  const lines: Line[] = []
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Line) })
  return { lines, logger }
}

/** What Fastify does per request with the logger instance: a child bound to the request id. */
function requestLogger(logger: pino.Logger, options: Record<string, unknown> = {}) {
  return lazyLogger(logger).child({ reqId: 'req-7' }, options)
}

test('a line the level lets through carries the request id, as a pino child would', () => {
  const { lines, logger } = recordingLogger('warn')
  const log = requestLogger(logger)
  log.warn({ extra: 'x' }, 'careful')
  log.error('broken')
  expect(lines).toEqual([
    expect.objectContaining({ level: 40, msg: 'careful', reqId: 'req-7', extra: 'x' }),
    expect.objectContaining({ level: 50, msg: 'broken', reqId: 'req-7' }),
  ])
})

test('lines below the level are dropped, and no child logger is made for them', () => {
  const { lines, logger } = recordingLogger('warn')
  let children = 0
  const counting = Object.assign(Object.create(logger) as pino.Logger, {
    child: (...args: Parameters<pino.Logger['child']>) => {
      children++
      return logger.child(...args)
    },
  })
  const log = requestLogger(counting)
  log.info('incoming request')
  log.debug('detail')
  expect(lines).toEqual([])
  expect(children).toBe(0)
  log.warn('now')
  log.warn('again')
  expect(children).toBe(1)
  expect(lines).toHaveLength(2)
})

test('a per-route level applies to the request logger', () => {
  const { lines, logger } = recordingLogger('warn')
  const log = requestLogger(logger, { level: 'debug' })
  expect(log.level).toBe('debug')
  log.debug('route detail')
  expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'route detail', reqId: 'req-7' })])
})

test('the app logs each request at info with its request id, and nothing per request at warn', async () => {
  for (const level of ['info', 'warn'] as const) {
    const lines: Line[] = []
    const app = await buildTestApp({
      logger: { level, stream: { write: (line) => lines.push(JSON.parse(line) as Line) } },
    })
    try {
      await app.inject({ method: 'GET', url: '/api/v1/health' })
      const perRequest = lines.filter((line) => line.reqId !== undefined)
      if (level === 'info') {
        expect(perRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed'])
        expect(new Set(perRequest.map((line) => line.reqId)).size).toBe(1)
      } else {
        expect(perRequest).toEqual([])
      }
    } finally {
      await app.close()
    }
  }
})

test("Fastify's own root and each request's logger under it make no pino child until a line is logged", () => {
  const { lines, logger } = recordingLogger('warn')
  let children = 0
  const counting = Object.assign(Object.create(logger) as pino.Logger, {
    child: (...args: Parameters<pino.Logger['child']>) => {
      children++
      return logger.child(...args)
    },
  })
  // Fastify makes its root from the instance once, then one child per request.
  const root = lazyLogger(counting).child({}, { serializers: {} })
  const perRequest = Array.from({ length: 3 }, (_, i) => root.child({ reqId: `req-${i}` }, {}))
  for (const log of perRequest) log.info('incoming request')
  expect(children).toBe(0)
  perRequest[1]?.error('broken')
  expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'broken', reqId: 'req-1' })])
  expect(children).toBe(1)
})

function fakeRequestAndReply(infoEnabled: boolean) {
  const calls: string[] = []
  const log = {
    isLevelEnabled: (level: string) => level !== 'info' || infoEnabled,
    info: (_: unknown, msg: string) => calls.push(`info ${msg}`),
    error: (_: unknown, msg: string) => calls.push(`error ${msg}`),
  }
  const request = { log } as unknown as FastifyRequest
  const reply = { log, elapsedTime: 1 } as unknown as FastifyReply
  return { calls, request, reply }
}

test("Fastify's per-request info lines are skipped before they are built when info is off; errors still log", () => {
  const lines = new RequestLines()
  const off = fakeRequestAndReply(false)
  lines.incomingRequest(off.request, off.reply)
  lines.requestCompleted(null, off.request, off.reply)
  expect(off.calls).toEqual([])
  lines.requestCompleted(new Error('boom'), off.request, off.reply)
  expect(off.calls).toEqual(['error request errored'])

  const on = fakeRequestAndReply(true)
  lines.incomingRequest(on.request, on.reply)
  lines.requestCompleted(null, on.request, on.reply)
  expect(on.calls).toEqual(['info incoming request', 'info request completed'])
})

test('at warn, a request that fails on our side is still logged at error with its request id', async () => {
  const lines: Line[] = []
  const app = await buildTestApp({
    logger: { level: 'warn', stream: { write: (line) => lines.push(JSON.parse(line) as Line) } },
  })
  try {
    app.get('/api/v1/test-failure', async () => {
      throw new Error('database on fire')
    })
    const response = await app.inject({ method: 'GET', url: '/api/v1/test-failure' })
    expect(response.statusCode).toBe(500)
    const errors = lines.filter((line) => line.level === 50)
    expect(errors).toEqual([expect.objectContaining({ msg: 'request failed', reqId: expect.any(String) })])
  } finally {
    await app.close()
  }
})
