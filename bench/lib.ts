/** Shared plumbing for the benchmarks: start the real server on a scratch data dir, wait for it. */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '..')

export type Running = { url: string; stop: () => Promise<void> }

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

/** `node server/main.ts` exactly as `npm run serve` runs it, on a fresh embedded database. */
export async function startApp(port: number, env: Record<string, string> = {}): Promise<Running> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docchat-bench-'))
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
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
  await waitFor(`${url}/api/v1/health`)
  return { url, stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })) }
}

export async function startScript(script: string, port: number): Promise<Running> {
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitFor(`${url}/hello`)
  return { url, stop: stopper(child) }
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
