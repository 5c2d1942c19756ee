/**
 * Do a revoked share link and one that never existed answer in the same time (D73)? Both are one
 * indexed lookup of the token's hash that finds nothing; this measures it. One in-process app on
 * in-memory PGlite, requests through `inject` (no network noise), the two kinds interleaved so
 * the machine's drift hits both alike; each request from its own address so the per-address limit
 * never answers instead. Prints the medians, the p95s and their ratio (revoked ÷ unknown).
 *
 * Usage: node bench/share-links.ts [requests of each kind, default 2000]
 */
import { randomBytes } from 'node:crypto'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'

const N = Number(process.argv[2] ?? 2000)

const app = await buildApp(
  loadConfig({ DATABASE_URL: 'memory:', APP_SECRET: 'bench-app-secret-that-is-long-enough-0123456789' }),
  { logger: false, distDir: '/nonexistent' },
)
const password = 'correct horse battery'
await app.inject({
  method: 'POST',
  url: '/api/v1/auth/register',
  payload: { email: 'bench@example.com', password, confirmPassword: password },
})
const login = await app.inject({
  method: 'POST',
  url: '/api/v1/auth/login',
  payload: { email: 'bench@example.com', password },
})
const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ')

// Revoked links: shared, then revoked, one conversation each.
const revoked: string[] = []
for (let i = 0; i < 50; i++) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/chat/sessions/create',
    headers: { cookie },
    payload: { title: `Conversation ${i}` },
  })
  const id = created.json().data._id as string
  await app.inject({
    method: 'POST',
    url: `/api/v1/chat/sessions/${id}/messages/send`,
    headers: { cookie },
    payload: { content: 'Hello', isUser: true, messageType: 'text' },
  })
  const share = await app.inject({
    method: 'POST',
    url: `/api/v1/chat/sessions/${id}/share`,
    headers: { cookie },
  })
  const url = share.json().data.url as string
  revoked.push(url.slice(url.lastIndexOf('/') + 1))
  await app.inject({ method: 'DELETE', url: `/api/v1/chat/sessions/${id}/share`, headers: { cookie } })
}

let address = 0
async function time(token: string): Promise<number> {
  address += 1
  const started = process.hrtime.bigint()
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/shared/${token}`,
    remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
  })
  const ns = Number(process.hrtime.bigint() - started)
  if (response.statusCode !== 404) throw new Error(`expected 404, got ${response.statusCode}`)
  return ns / 1e6
}

const unknownMs: number[] = []
const revokedMs: number[] = []
// Warm-up, then interleaved measurements.
for (let i = 0; i < 200; i++) await time(randomBytes(32).toString('base64url'))
for (let i = 0; i < N; i++) {
  // Which kind goes first alternates: the second request of a pair finds a warmer cache.
  const unknown = () => time(randomBytes(32).toString('base64url')).then((ms) => unknownMs.push(ms))
  const gone = () => time(revoked[i % revoked.length] ?? '').then((ms) => revokedMs.push(ms))
  if (i % 2 === 0) {
    await unknown()
    await gone()
  } else {
    await gone()
    await unknown()
  }
}
await app.close()

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}
const row = (name: string, values: number[]) =>
  `| ${name} | ${values.length} | ${quantile(values, 0.5).toFixed(3)} | ${quantile(values, 0.95).toFixed(3)} |`
console.log('| link | requests | p50 ms | p95 ms |')
console.log('|---|---:|---:|---:|')
console.log(row('never existed', unknownMs))
console.log(row('revoked', revokedMs))
console.log(
  `revoked ÷ never existed: p50 ${(quantile(revokedMs, 0.5) / quantile(unknownMs, 0.5)).toFixed(3)}, p95 ${(
    quantile(revokedMs, 0.95) / quantile(unknownMs, 0.95)
  ).toFixed(3)}`,
)
