/**
 * Two servers on the same core, loaded at the same time by two wrk processes on the other core:
 * the machine's drift hits both alike, and the ratio of their req/s is the ratio of their costs
 * per request. How this project compares two builds of the server (bench/RESULTS.md).
 *
 * Usage: node bench/side-by-side.ts <A> <B> [path] [rounds] [seconds]
 *   A, B: a checkout of this repository (its `server/main.ts` runs on a fresh embedded database),
 *         e.g. `git worktree add /tmp/before HEAD~1 && ln -s $PWD/node_modules /tmp/before/`,
 *         or `bare` for bench/bare-server.ts (which answers /hello on any path given).
 *   path: default /api/v1/auth/me; each server is signed up and in, and wrk sends its cookie.
 * Prints B's req/s ÷ A's per round and the median. The same build on both sides gives 0.97–1.03.
 * Needs Debian's wrk, and taskset for the pinning.
 */
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
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

const [a, b, path = '/api/v1/auth/me', rounds = '5', seconds = '3'] = process.argv.slice(2)
if (!a || !b) {
  console.error(
    'usage: node bench/side-by-side.ts <A> <B> [path] [rounds] [seconds]  (A, B: a checkout, or bare)',
  )
  process.exit(2)
}
if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('bench/side-by-side.ts needs wrk (apt-get install wrk)')
  process.exit(2)
}

type Side = { server: Running; url: string; cookie: string }

async function start(spec: string, port: number): Promise<Side> {
  if (spec === 'bare') {
    const server = await startScript('bench/bare-server.ts', port, SERVER_CPU)
    return { server, url: `${server.url}/hello`, cookie: '' }
  }
  const server = await startApp(port, {}, SERVER_CPU, resolve(spec))
  return { server, url: `${server.url}${path}`, cookie: await signedInCookie(server.url) }
}

function wrk(side: Side, duration: string): Promise<number> {
  const [cmd, args] = onCpu(LOAD_CPU, 'wrk', [
    '-t1',
    '-c20',
    `-d${duration}s`,
    '-H',
    `cookie: ${side.cookie}`,
    side.url,
  ])
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', fail)
    child.on('exit', () => {
      if (/Non-2xx/.test(out)) fail(new Error(`${side.url} answered non-2xx: ${out}`))
      else done(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN))
    })
  })
}

const sides: Side[] = []
try {
  sides.push(await start(a, 3421), await start(b, 3422))
  const [sideA, sideB] = sides as [Side, Side]
  await Promise.all([wrk(sideA, '2'), wrk(sideB, '2')])
  const ratios: number[] = []
  for (let round = 0; round < Number(rounds); round++) {
    const [ra, rb] = await Promise.all([wrk(sideA, seconds), wrk(sideB, seconds)])
    ratios.push(rb / ra)
    console.log(
      `round ${round + 1}: A ${Math.round(ra)} req/s, B ${Math.round(rb)} req/s, B/A ${(rb / ra).toFixed(3)}`,
    )
  }
  const sorted = [...ratios].sort((x, y) => x - y)
  console.log(
    `median B/A ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)} (${CAN_PIN ? `servers on cpu ${SERVER_CPU}, wrk on cpu ${LOAD_CPU}` : 'unpinned: the ratio is not a cost ratio'})`,
  )
} finally {
  await Promise.all(sides.map((side) => side.server.stop()))
}
