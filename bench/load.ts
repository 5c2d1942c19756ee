/**
 * The autocannon side of bench/http.ts, in its own process so it can run on another core than the
 * servers, and one process for the whole run so autocannon's own code stays warm from window to
 * window. Usage: node bench/load.ts '<Plan as JSON>'
 *
 * Measures every target for `seconds`, round after round; each round starts one target later
 * than the last, so no target always follows the same one. Prints one JSON line per measurement:
 * { round, target, reqPerSec, non2xx, errors } (round -1: warm-up).
 */
import autocannon from 'autocannon'

type Target = { url: string; headers: Record<string, string> }
type Plan = { targets: Target[]; seconds: number; rounds: number; connections: number; warmupSeconds: number }

const plan = JSON.parse(process.argv[2] ?? '{}') as Plan

async function measure(round: number, index: number, seconds: number): Promise<void> {
  const target = plan.targets[index]
  if (!target) throw new Error(`no target ${index}`)
  const result = await autocannon({
    url: target.url,
    connections: plan.connections,
    duration: seconds,
    headers: target.headers,
  })
  console.log(
    JSON.stringify({
      round,
      target: index,
      reqPerSec: result.requests.average,
      non2xx: result.non2xx,
      errors: result.errors,
    }),
  )
}

for (let index = 0; index < plan.targets.length; index++) await measure(-1, index, plan.warmupSeconds)
for (let round = 0; round < plan.rounds; round++) {
  for (let step = 0; step < plan.targets.length; step++) {
    await measure(round, (round + step) % plan.targets.length, plan.seconds)
  }
}
