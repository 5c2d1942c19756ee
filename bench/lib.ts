/** Shared plumbing for the benchmarks: start the real server on a scratch data dir, wait for it. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '..')
/**
 * The node options `npm run serve` starts the server with (package.json is the one place they are
 * written), so every bench measures the server as it runs in production.
 */
export const SERVE_NODE_FLAGS: string[] = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { serve: string } }
).scripts.serve
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'))

export type Running = { url: string; pid: number; stop: () => Promise<void> }

/**
 * On Linux with util-linux's taskset and at least two cores, a benchmark puts the servers on one
 * core and the load generator on another, so they do not take turns on the same core (on two
 * cores that was the largest source of noise). Elsewhere everything runs unpinned.
 */
export const CAN_PIN =
  process.platform === 'linux' &&
  availableParallelism() >= 2 &&
  spawnSync('taskset', ['-c', '0', 'true']).status === 0

/** `[command, ...args]` run on `cpu` when pinning is possible. */
export function onCpu(cpu: number, command: string, args: string[]): [string, string[]] {
  return CAN_PIN ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]
}

/** Where the servers run and where the load generator runs. */
export const SERVER_CPU = 0
export const LOAD_CPU = 1

export async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}

function stopper(child: ChildProcess, cleanup?: () => void): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      child.once('exit', () => {
        cleanup?.()
        resolve()
      })
      child.kill('SIGTERM')
    })
}

/**
 * `node server/main.ts` exactly as `npm run serve` runs it, on a fresh embedded database; `root`:
 * another checkout to run instead of this one (bench/side-by-side.ts).
 */
export async function startApp(
  port: number,
  env: Record<string, string> = {},
  cpu?: number,
  root: string = ROOT,
): Promise<Running> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docchat-bench-'))
  const url = `http://127.0.0.1:${port}`
  const [command, args] =
    cpu === undefined
      ? [process.execPath, [...SERVE_NODE_FLAGS, 'server/main.ts']]
      : onCpu(cpu, process.execPath, [...SERVE_NODE_FLAGS, 'server/main.ts'])
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    // Migrations on a fresh embedded database take a while on a loaded machine.
    await waitFor(`${url}/api/v1/health`, 120_000)
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
  return {
    url,
    pid: child.pid ?? 0,
    stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })),
  }
}

export async function startScript(script: string, port: number, cpu?: number): Promise<Running> {
  const url = `http://127.0.0.1:${port}`
  const [command, args] =
    cpu === undefined ? [process.execPath, [script]] : onCpu(cpu, process.execPath, [script])
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitFor(`${url}/hello`)
  return { url, pid: child.pid ?? 0, stop: stopper(child) }
}

/** Signs a fresh user up and in through the public API; returns the Cookie header to send. */
export async function signedInCookie(url: string): Promise<string> {
  const email = `bench-${Date.now()}@example.com`
  const password = 'bench-password'
  const headers = { 'content-type': 'application/json' }
  const reg = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password, confirmPassword: password }),
  })
  if (reg.status !== 201) throw new Error(`register answered ${reg.status}`)
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  })
  if (login.status !== 200) throw new Error(`login answered ${login.status}`)
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

/** This process's reader processes (children only: another run's on the machine are not counted). */
function ownReaders(): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('reader-process.ts')) return false
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid
      } catch {
        return false // ended meanwhile
      }
    })
}

/** The resident memory of this process's reader processes now, in MiB. */
export function readerRssMiB(): number {
  let kb = 0
  for (const pid of ownReaders()) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024
}

/**
 * The CPU time this process's reader processes have used so far (user + system, every thread),
 * in seconds: what a file costs whatever else the machine is doing (Linux counts it in ticks of
 * 1/100 s).
 */
export function readerCpuSeconds(): number {
  let ticks = 0
  for (const pid of ownReaders()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // ended meanwhile
    }
  }
  return ticks / 100
}
