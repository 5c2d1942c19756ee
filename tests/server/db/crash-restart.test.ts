import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

// Real server processes on one data directory (own ports, docs/testing.md).
const MAIN = fileURLToPath(new URL('../../../server/main.ts', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'docchat-crash-'))
const children: ChildProcess[] = []

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

function startServer(port: number) {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += String(chunk)
  })
  child.stderr?.on('data', (chunk) => {
    output += String(chunk)
  })
  /** Resolves 'ready' once the server listens, or 'exited' when it ends first. */
  const outcome = new Promise<'ready' | 'exited'>((resolve) => {
    child.stdout?.on('data', () => {
      if (output.includes('DocChat is ready')) resolve('ready')
    })
    child.on('exit', () => resolve('exited'))
  })
  return { child, outcome, output: () => output }
}

test('after kill -9 a restart on the same data directory starts at once; a second live server is still refused', async () => {
  const first = startServer(3221)
  expect(await first.outcome).toBe('ready')

  const second = startServer(3222)
  expect(await second.outcome).toBe('exited')
  expect(second.child.exitCode).toBe(1)
  expect(second.output()).toContain(`Another DocChat server is already using the data directory ${dataDir}`)

  first.child.kill('SIGKILL')
  await once(first.child, 'exit')
  const started = performance.now()
  const restarted = startServer(3221)
  expect(await restarted.outcome, restarted.output()).toBe('ready')
  // The old lock refused the restart for up to 15 s; now the only wait is opening the database.
  expect(performance.now() - started).toBeLessThan(30_000)

  const response = await fetch('http://127.0.0.1:3221/api/v1/health')
  expect(response.status).toBe(200)
  restarted.child.kill('SIGTERM')
  await once(restarted.child, 'exit')
}, 90_000)
