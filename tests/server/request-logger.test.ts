import pino from 'pino'
import { expect, test } from 'vitest'
import { lazyChildLoggerFactory } from '#server/request-logger.ts'
import { buildTestApp } from './helper.ts'

type Line = { level: number; msg: string; reqId?: string; extra?: string }

function recordingLogger(level: string) {
  const lines: Line[] = []
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Line) })
  return { lines, logger }
}

function requestLogger(logger: pino.Logger, options: Record<string, unknown> = {}) {
  const fake = {} as never
  return lazyChildLoggerFactory.call(fake, logger, { reqId: 'req-7' }, options, fake)
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
