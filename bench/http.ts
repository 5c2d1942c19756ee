/**
 * HTTP throughput: a bare Fastify hello route (baseline), /api/v1/health, and /api/v1/auth/me
 * signed in, each served by its own process and measured in the same run with autocannon.
 * Floor: /auth/me >= 0.5x the bare route's req/s (the 0.7x target is retired, issue 14: nobody feels
 * the difference; the floor only catches a real regression).
 *
 * Usage: node bench/http.ts [seconds per measurement, default 2] [rounds, default 12]
 *   BENCH_COMPARE_NODE_OPTIONS="--max-semi-space-size=8": also /auth/me from a process started
 *   with those node options, in the same rounds.
 *
 * This machine's speed drifts by ±20 % over a few seconds (the same build measures 31k–47k req/s
 * on the bare route in consecutive runs), so a ratio is only as good as the closeness in time of
 * its two figures. The three routes are measured in many short rounds, each round's ratios are
 * taken within the round, each round starts one route later than the last, and the verdict is
 * the median round. autocannon runs in one process for the whole run (bench/load.ts), so its
 * own JIT is warm in every window. Servers run on one core and the load generator on the other
 * when taskset allows (bench/lib.ts). When Debian's wrk is installed, the same rounds are also
 * measured with it: a C load generator that saturates the server where autocannon (JavaScript)
 * saturates first, so its ratios can differ and show the server's own cost per request.
 */
import { spawn, spawnSync } from 'node:child_process'
import {
  CAN_PIN,
  LOAD_CPU,
  onCpu,
  type Running,
  SERVER_CPU,
  signedInCookie,
  startApp,
  startScript,
} from './lib.ts'

const SECONDS = Number(process.argv[2] ?? 2)
const ROUNDS = Number(process.argv[3] ?? 12)
const WARMUP_SECONDS = 2
const CONNECTIONS = 20
const TARGET = 0.5
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined

type Target = { name: string; url: string; headers: Record<string, string> }
type Figure = { reqPerSec: number; non2xx: number }
type Tool = 'autocannon' | 'wrk'

function run(command: string, args: string[]): Promise<string> {
  const [cmd, argv] = onCpu(LOAD_CPU, command, args)
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))))
  })
}

/** figures[round][target], measured by autocannon in one process (bench/load.ts). */
async function autocannonRounds(targets: Target[]): Promise<Figure[][]> {
  const plan = {
    targets: targets.map(({ url, headers }) => ({ url, headers })),
    seconds: SECONDS,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
  }
  const out = await run(process.execPath, ['bench/load.ts', JSON.stringify(plan)])
  const rows: Figure[][] = Array.from({ length: ROUNDS }, () => [])
  for (const line of out.trim().split('\n')) {
    const { round, target, reqPerSec, non2xx } = JSON.parse(line) as Figure & {
      round: number
      target: number
    }
    const row = rows[round]
    if (row) row[target] = { reqPerSec, non2xx }
  }
  return rows
}

async function wrk(target: Target, seconds: number): Promise<Figure> {
  const headerArgs = Object.entries(target.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
  const out = await run('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, ...headerArgs, target.url])
  const reqPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  return { reqPerSec, non2xx }
}

/** The same rounds with wrk, one wrk process per measurement (it starts in a millisecond). */
async function wrkRounds(targets: Target[]): Promise<Figure[][]> {
  for (const target of targets) await wrk(target, WARMUP_SECONDS)
  const rows: Figure[][] = []
  for (let round = 0; round < ROUNDS; round++) {
    const row: Figure[] = []
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length
      const target = targets[index]
      if (target) row[index] = await wrk(target, SECONDS)
    }
    rows.push(row)
  }
  return rows
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

const servers: Running[] = []
try {
  // BENCH_PORT: a base port of one's own when others run benchmarks on the same machine.
  const basePort = Number(process.env.BENCH_PORT ?? 3301)
  const bare = await startScript('bench/bare-server.ts', basePort, SERVER_CPU)
  servers.push(bare)
  const app = await startApp(basePort + 1, {}, SERVER_CPU)
  servers.push(app)
  const cookie = await signedInCookie(app.url)
  const targets: Target[] = [
    { name: 'bare fastify /hello (baseline)', url: `${bare.url}/hello`, headers: {} },
    { name: '/api/v1/health', url: `${app.url}/api/v1/health`, headers: {} },
    { name: '/api/v1/auth/me (signed in)', url: `${app.url}/api/v1/auth/me`, headers: { cookie } },
  ]
  // BENCH_COMPARE_NODE_OPTIONS: a second app process started with these node options, its
  // /auth/me measured in the same rounds (e.g. a V8 heap flag's cost in throughput).
  const compare = process.env.BENCH_COMPARE_NODE_OPTIONS
  if (compare) {
    const other = await startApp(basePort + 2, { NODE_OPTIONS: compare }, SERVER_CPU)
    servers.push(other)
    const otherCookie = await signedInCookie(other.url)
    targets.push({
      name: `/api/v1/auth/me (signed in, NODE_OPTIONS=${compare})`,
      url: `${other.url}/api/v1/auth/me`,
      headers: { cookie: otherCookie },
    })
  }
  const tools: Tool[] = HAS_WRK ? ['autocannon', 'wrk'] : ['autocannon']
  const figures = new Map<Tool, Figure[][]>()
  for (const tool of tools) {
    figures.set(tool, tool === 'autocannon' ? await autocannonRounds(targets) : await wrkRounds(targets))
  }

  console.log(
    `\n${ROUNDS} rounds, ${SECONDS}s per route per round, ${CONNECTIONS} connections, node ${process.version}, ` +
      (CAN_PIN ? `servers on cpu ${SERVER_CPU}, load generator on cpu ${LOAD_CPU}` : 'unpinned'),
  )
  for (const tool of tools) {
    const rows = figures.get(tool) ?? []
    console.log(`\n${tool}${tool === 'autocannon' ? ' (the target)' : ' (cross-check)'}\n`)
    console.log('| route | median req/s | median ratio | ratio per round |')
    console.log('|---|---:|---:|---|')
    targets.forEach((target, t) => {
      const perSecond = rows.map((row) => row[t]?.reqPerSec ?? 0)
      const ratios = rows.map((row) => (row[t]?.reqPerSec ?? 0) / (row[0]?.reqPerSec ?? 1))
      console.log(
        `| ${target.name} | ${Math.round(median(perSecond))} | ${median(ratios).toFixed(2)} | ${ratios.map((r) => r.toFixed(2)).join(' ')} |`,
      )
    })
    const failed = rows.flat().filter((figure) => figure.non2xx > 0).length
    if (failed > 0)
      console.log(`\nWARNING: ${failed} measurements saw non-2xx answers; those figures are not valid.`)
  }
  const meRatios = (figures.get('autocannon') ?? []).map(
    (row) => (row[2]?.reqPerSec ?? 0) / (row[0]?.reqPerSec ?? 1),
  )
  const verdict = median(meRatios)
  console.log(
    `\n/auth/me median ratio (autocannon): ${verdict.toFixed(2)} — floor >= ${TARGET}: ${verdict >= TARGET ? 'met' : 'NOT met'}`,
  )
} finally {
  await Promise.all(servers.map((server) => server.stop()))
}
