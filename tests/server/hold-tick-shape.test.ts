/**
 * README D13: the server holds one nextTick object so that V8 keeps defining tick objects on its
 * fast path after a full GC. These tests read V8's own feedback (`%DebugPrint`) in child
 * processes: fixtures/next-tick-feedback.ts prints one line per key of the tick object.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const FIXTURES = join(import.meta.dirname, 'fixtures')

let scratch: string
let child: ChildProcess | undefined
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'docchat-tick-'))
})
afterEach(() => {
  child?.kill('SIGKILL')
  child = undefined
  rmSync(scratch, { recursive: true, force: true })
})

/**
 * Starts `node --allow-natives-syntax --expose-gc …args` with stdout in a file, not a pipe: V8
 * prints through C stdio, which can lose text on the non-blocking pipe Node gives a child.
 */
function startNode(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const stdoutFile = join(scratch, 'stdout.txt')
  const stdoutFd = openSync(stdoutFile, 'w')
  const started = spawn(process.execPath, ['--allow-natives-syntax', '--expose-gc', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', stdoutFd, 'inherit'],
  })
  closeSync(stdoutFd)
  child = started
  const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()))
  return {
    child: started,
    tickKeyStates: () => exited.then(() => tickKeyStates(readFileSync(stdoutFile, 'utf8'))),
  }
}

/** The IC state of each key nextTick defines, e.g. ['MONOMORPHIC', 'MEGAMORPHIC', …]. */
function tickKeyStates(output: string): string[] {
  return [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '')
}

test('without a held tick, a full GC with no tick queued sends nextTick to the slow path for good', async () => {
  // V8's behaviour D13 works around. If this fails on a new Node, check whether D13 is still needed.
  const states = await startNode([join(FIXTURES, 'tick-feedback.ts'), 'bare']).tickKeyStates()
  expect(states.length).toBeGreaterThanOrEqual(4)
  expect(states).toContain('MEGAMORPHIC')
})

test('holding one tick object keeps every key of the tick object on the fast path', async () => {
  const states = await startNode([join(FIXTURES, 'tick-feedback.ts'), 'hold']).tickKeyStates()
  expect(states.length).toBeGreaterThanOrEqual(4)
  expect(new Set(states)).toEqual(new Set(['MONOMORPHIC']))
})

test('the real server, after starting embedded PGlite and serving a request, keeps nextTick on the fast path', async () => {
  const port = 3600 + Math.floor(Math.random() * 300)
  // The default database, PGlite persisted in DATA_DIR, as `npm start` runs it: its start is
  // what used to send nextTick to the slow path.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: scratch, LOG_LEVEL: 'warn' }
  delete env.DATABASE_URL
  const server = startNode(['--import', join(FIXTURES, 'print-feedback-on-signal.ts'), 'server/main.ts'], env)

  const deadline = Date.now() + 45_000
  let healthy = false
  while (!healthy && Date.now() < deadline) {
    healthy = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    )
    if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(healthy).toBe(true)

  server.child.kill('SIGUSR2')
  const states = await server.tickKeyStates()
  expect(states.length).toBeGreaterThanOrEqual(4)
  expect(new Set(states)).toEqual(new Set(['MONOMORPHIC']))
}, 60_000)
