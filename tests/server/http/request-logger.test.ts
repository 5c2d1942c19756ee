import { expect, test } from 'vitest'
import { buildTestApp } from '../support/helper.ts'

type Line = {
  level: number
  msg: string
  reqId?: string
  extra?: string
  req?: { url?: string }
  res?: { statusCode?: number }
}

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
        expect(perRequest[0]?.req?.url).toBe('/api/v1/health')
        expect(perRequest[1]?.res?.statusCode).toBe(200)
      } else {
        expect(perRequest).toEqual([])
      }
    } finally {
      await app.close()
    }
  }
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

test("Fastify's own warnings about a request reach the log with its request id", async () => {
  const lines: Line[] = []
  const app = await buildTestApp({
    logger: { level: 'warn', stream: { write: (line) => lines.push(JSON.parse(line) as Line) } },
  })
  try {
    app.get('/api/v1/test-double-send', async (_request, reply) => {
      await reply.send({ first: true })
      return reply.send({ second: true })
    })
    await app.inject({ method: 'GET', url: '/api/v1/test-double-send' })
    const warnings = lines.filter((line) => line.level === 40)
    expect(warnings).toEqual([expect.objectContaining({ reqId: expect.any(String) })])
  } finally {
    await app.close()
  }
})

test('app.log is the app logger: lines outside any request reach the stream', async () => {
  const lines: Line[] = []
  const app = await buildTestApp({
    logger: { level: 'info', stream: { write: (line) => lines.push(JSON.parse(line) as Line) } },
  })
  try {
    app.log.info('hello from the app')
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: 'hello from the app' }))
  } finally {
    await app.close()
  }
})
