/**
 * Footprint: idle memory and cold start of `node server/main.ts` on an existing embedded database
 * (D42). `node bench/footprint.ts [rounds]` (default 5), one process at a time:
 * - idle RSS: the server after start, a sign-up, a sign-in and /auth/me, left idle 2 s, against a
 *   bare PGlite process holding the same data directory (bench/bare-pglite.ts). Target ≤ 1.2×.
 * - cold start: spawn to the first 200 from /api/v1/health, on a data directory initialised
 *   before (initdb is a first-start cost, not a restart cost). Target ≤ 2 s.
 * - import time: `import('server/app.ts')` alone, against `import('fastify')` as the baseline.
 * Medians over the rounds, the rounds interleaved so machine drift hits both sides alike.
 * BENCH_BASELINE_ROOT=<another checkout>: its server and import measured in the same rounds too.
 * BENCH_PORT: the server's port (3236).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ROOT, SERVE_NODE_FLAGS, signedInCookie, waitFor } from './lib.ts'

const rounds = Number(process.argv[2] ?? 5)
const PORT = Number(process.env.BENCH_PORT ?? 3236)
// BENCH_BASELINE_ROOT: another checkout measured in the same rounds (its own data directory).
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN)
  return kb / 1024
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

function startServer(dataDir: string, root: string): { child: ChildProcess; url: string } {
  const url = `http://127.0.0.1:${PORT}`
  const child = spawn(process.execPath, [...SERVE_NODE_FLAGS, 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      // Node options for the server only (e.g. --max-semi-space-size=16): FOOTPRINT_NODE_OPTIONS.
      NODE_OPTIONS: process.env.FOOTPRINT_NODE_OPTIONS ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return { child, url }
}

async function serverRound(dataDir: string, root = ROOT): Promise<{ coldMs: number; rss: number }> {
  const started = performance.now()
  const { child, url } = startServer(dataDir, root)
  try {
    await waitFor(`${url}/api/v1/health`, 60_000)
    const coldMs = performance.now() - started
    const cookie = await signedInCookie(url)
    await fetch(`${url}/api/v1/auth/me`, { headers: { cookie } })
    await sleep(2_000)
    return { coldMs, rss: rssMiB(child.pid ?? 0) }
  } finally {
    await stop(child)
  }
}

async function bareRound(dataDir: string): Promise<number> {
  const child = spawn(process.execPath, ['bench/bare-pglite.ts'], {
    cwd: ROOT,
    env: { ...process.env, PGLITE_DIR: path.join(dataDir, 'pglite') },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`bare PGlite exited with ${code}`)))
    })
    await sleep(2_000)
    return rssMiB(child.pid ?? 0)
  } finally {
    await stop(child)
  }
}

async function importMs(specifier: string, root = ROOT): Promise<number> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  await new Promise((resolve) => child.once('exit', resolve))
  return performance.now() - started
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'docchat-footprint-'))
const baselineDir = BASELINE_ROOT ? mkdtempSync(path.join(tmpdir(), 'docchat-footprint-base-')) : null
try {
  // First start: initdb and migrations, not counted.
  await serverRound(dataDir)
  if (BASELINE_ROOT && baselineDir) await serverRound(baselineDir, BASELINE_ROOT)
  const server = { cold: [] as number[], rss: [] as number[] }
  const baseline = { cold: [] as number[], rss: [] as number[], app: [] as number[] }
  const bare: number[] = []
  const imports = { app: [] as number[], fastify: [] as number[] }
  for (let round = 0; round < rounds; round++) {
    const s = await serverRound(dataDir)
    server.cold.push(s.coldMs)
    server.rss.push(s.rss)
    if (BASELINE_ROOT && baselineDir) {
      const b = await serverRound(baselineDir, BASELINE_ROOT)
      baseline.cold.push(b.coldMs)
      baseline.rss.push(b.rss)
      baseline.app.push(await importMs('./server/app.ts', BASELINE_ROOT))
    }
    bare.push(await bareRound(dataDir))
    imports.app.push(await importMs('./server/app.ts'))
    imports.fastify.push(await importMs('fastify'))
    console.log(
      `round ${round + 1}: server ${s.rss.toFixed(0)} MiB, bare PGlite ${bare.at(-1)?.toFixed(0)} MiB, cold start ${s.coldMs.toFixed(0)} ms, import app ${imports.app.at(-1)?.toFixed(0)} ms, fastify ${imports.fastify.at(-1)?.toFixed(0)} ms` +
        (BASELINE_ROOT
          ? `; baseline server ${baseline.rss.at(-1)?.toFixed(0)} MiB, cold start ${baseline.cold.at(-1)?.toFixed(0)} ms, import app ${baseline.app.at(-1)?.toFixed(0)} ms`
          : ''),
    )
  }
  const rss = median(server.rss)
  const base = median(bare)
  console.log(
    `\nidle RSS: server ${rss.toFixed(0)} MiB, bare PGlite ${base.toFixed(0)} MiB: ${(rss / base).toFixed(2)}× (target ≤ 1.2×)`,
  )
  console.log(
    `cold start (spawn → /health 200): median ${median(server.cold).toFixed(0)} ms (target ≤ 2000 ms)`,
  )
  console.log(
    `import server/app.ts: median ${median(imports.app).toFixed(0)} ms; import fastify alone: ${median(imports.fastify).toFixed(0)} ms (node start included in both)`,
  )
  if (BASELINE_ROOT) {
    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2)
    console.log(
      `baseline ${BASELINE_ROOT}: idle RSS ${median(baseline.rss).toFixed(0)} MiB (${(median(baseline.rss) / base).toFixed(2)}× bare), ` +
        `cold start ${median(baseline.cold).toFixed(0)} ms, import app ${median(baseline.app).toFixed(0)} ms; ` +
        `this / baseline: idle RSS ${ratio(server.rss, baseline.rss)}×, cold start ${ratio(server.cold, baseline.cold)}×, import app ${ratio(imports.app, baseline.app)}×`,
    )
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
  if (baselineDir) rmSync(baselineDir, { recursive: true, force: true })
}
