import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/database.ts'
import { searchPassages } from '../server/documents/passage-search.ts'
import { benchQuestion, createCorpus } from './corpus.ts'
const database = await openDatabase(loadConfig({ APP_SECRET: 'bench-secret-that-is-long-enough-0123456789', ...(process.env.URL ? { DATABASE_URL: process.env.URL } : { DATA_DIR: process.argv[2] }) }))
const { db } = database
const [u] = (await db.execute(sql`select user_id from document_chunks group by user_id order by count(*) desc limit 1`)).rows as any[]
const samples = ((await db.execute(sql`select text from document_chunks where user_id = ${u.user_id} order by random() limit 200`)).rows as any[]).map((r) => r.text)
const corpus = createCorpus({ seed: 0x27d4eb2f, tailSize: 6000, codeRate: 0.025 })
const times: { q: string; n: number; ms: number; sql: string; params: unknown[] }[] = []
const exec = db.execute.bind(db)
let current = ''
let n = 0
;(db as any).execute = async (query: any) => {
  const t = performance.now()
  const r = await exec(query)
  const built = (db as any).dialect.sqlToQuery(query)
  times.push({ q: current, n: n++, ms: performance.now() - t, sql: built.sql, params: built.params })
  return r
}
const questions = Array.from({ length: Number(process.argv[3] ?? 100) }, () => benchQuestion(corpus, samples))
for (const q of questions.slice(0, 20)) await searchPassages(db, u.user_id, q, 10)
times.length = 0
const totals: number[] = []
for (const q of questions) { current = q; n = 0; const t = performance.now(); await searchPassages(db, u.user_id, q, 10); totals.push(performance.now() - t) }
totals.sort((a, b) => a - b)
console.log('p50', totals[Math.floor(totals.length / 2)]?.toFixed(1), 'p95', totals[Math.floor(totals.length * 0.95)]?.toFixed(1))
const byN = new Map<number, number[]>()
for (const t of times) byN.set(t.n, [...(byN.get(t.n) ?? []), t.ms])
for (const [k, v] of byN) { v.sort((a, b) => a - b); console.log('stmt', k, 'count', v.length, 'p50', v[Math.floor(v.length / 2)]?.toFixed(1), 'p95', v[Math.floor(v.length * 0.95)]?.toFixed(1)) }
const slow = [...times].sort((a, b) => b.ms - a.ms)[0]!
console.log('slowest', slow.q, slow.n, slow.ms.toFixed(1))
const r = await exec(sql.raw('explain (analyze, buffers) ' + slow.sql.replace(/\$(\d+)/g, (_, i) => { const v = slow.params[Number(i) - 1]; return Array.isArray(v) ? `'{${v.map((x) => JSON.stringify(String(x))).join(',')}}'` : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'` })))
for (const row of (r as any).rows) console.log(Object.values(row)[0])
await database.close()
