/**
 * HTTP throughput: a bare Fastify hello route (baseline), /api/v1/health, and /api/v1/auth/me
 * signed in, each served by its own process and measured in the same run with autocannon.
 * Target: /auth/me >= 0.7x the bare route's req/s. Usage: node bench/http.ts [seconds]
 */
import autocannon from 'autocannon'
import { signedInCookie, startApp, startScript } from './lib.ts'

const DURATION = Number(process.argv[2] ?? 10)
const CONNECTIONS = 20

type Result = { name: string; reqPerSec: number; p99: number; non2xx: number }

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  // A short warm-up so the JIT and caches are in the state a running server is in.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers })
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers })
  return { name, reqPerSec: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx }
}

const bare = await startScript('bench/bare-server.ts', 3301)
const app = await startApp(3302)
try {
  const cookie = await signedInCookie(app.url)
  const results = [
    await measure('bare fastify /hello (baseline)', `${bare.url}/hello`),
    await measure('/api/v1/health', `${app.url}/api/v1/health`),
    await measure('/api/v1/auth/me (signed in)', `${app.url}/api/v1/auth/me`, { cookie }),
  ]
  const base = results[0]?.reqPerSec ?? 1
  console.log(`\n${DURATION}s per route, ${CONNECTIONS} connections, node ${process.version}\n`)
  console.log('| route | req/s | ratio to bare | p99 ms | non-2xx |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of results) {
    console.log(
      `| ${r.name} | ${Math.round(r.reqPerSec)} | ${(r.reqPerSec / base).toFixed(2)} | ${r.p99} | ${r.non2xx} |`,
    )
  }
  const me = results[2]
  if (me && me.non2xx > 0)
    console.log('\nWARNING: /auth/me answered non-2xx during the run; the figure is not valid.')
} finally {
  await Promise.all([bare.stop(), app.stop()])
}
