/**
 * One autocannon measurement in its own process, so bench/http.ts can run the load generator on
 * a different core from the servers. Usage: node bench/load.ts '{"url":…,"seconds":…,"headers":{…}}'
 * Prints one JSON line: { reqPerSec, p99, non2xx, errors }.
 */
import autocannon from 'autocannon'

type Spec = { url: string; seconds: number; connections: number; headers?: Record<string, string> }

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  headers: spec.headers ?? {},
})
console.log(
  JSON.stringify({
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
)
