/**
 * What one oversized stored answer costs everyone's listing and search (issue 25: a model that kept
 * talking stored 20,000,000 characters; the conversation list and a search over it then stalled
 * the instance). One person with CONVERSATIONS conversations of ordinary answers: the conversation
 * list and a search are timed (the baseline), then one answer of LONG_CHARS characters is stored
 * as a server without a cap would have, and the same calls are timed again, in the same run. Also
 * timed: storing that answer against storing one at the answer cap (LLM_MAX_TOKENS × 8).
 * Targets: after the long answer, list and search p95 within 2× of the baseline.
 * Usage: node bench/long-messages.ts [rounds] [long MB]   (DATABASE_URL=postgres://… for PostgreSQL)
 */
import { performance } from 'node:perf_hooks'
import { ANSWER_CHARS_PER_TOKEN } from '../server/answering/answer-shapes.ts'
import { buildApp } from '../server/app.ts'
import { DEFAULT_LLM_MAX_TOKENS, loadConfig } from '../server/config.ts'
import { chatConversations, chatMessages } from '../server/db/schema.ts'
import { percentile } from './corpus.ts'

const ROUNDS = Number(process.argv[2] ?? 30)
const LONG_CHARS = Number(process.argv[3] ?? 20) * 1_000_000
const CONVERSATIONS = 50
const PASSWORD = 'bench password 1234'

const words = (n: number, seed: number) => {
  let text = ''
  for (let i = 0; text.length < n; i++)
    text += `${['harbour', 'tide', 'pilot', 'ferry', 'quay'][i % 5]}${(i + seed) % 4999} `
  return text.slice(0, n)
}

const config = loadConfig({
  DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
  APP_SECRET: 'bench-secret-that-is-long-enough-0123456789',
  LOG_LEVEL: 'silent',
})
const app = await buildApp(config, { logger: false, distDir: '/nonexistent/docchat-dist' })
try {
  const email = `long-${Date.now()}@example.com`
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email, password: PASSWORD, confirmPassword: PASSWORD },
  })
  const userId = (signUp.json() as { data: { user: { _id: string } } }).data.user._id
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: PASSWORD },
  })
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ')

  const ids: string[] = []
  for (let c = 0; c < CONVERSATIONS; c++) {
    const [row] = await app.db
      .insert(chatConversations)
      .values({ userId, title: `Conversation ${c}` })
      .returning({ id: chatConversations.id })
    if (!row) throw new Error('no conversation')
    ids.push(row.id)
    await app.db.insert(chatMessages).values([
      { conversationId: row.id, userId, isUser: true, content: `Question ${c} about the harbour?` },
      { conversationId: row.id, userId, isUser: false, content: words(2000, c) },
    ])
  }

  async function time(label: string) {
    const results: Record<string, number[]> = { list: [], search: [] }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, url] of [
        ['list', '/api/v1/chat/sessions/all'],
        ['search', `/api/v1/chat/search?q=${encodeURIComponent(`harbour${(r * 5) % 4999}`)}`],
      ] as const) {
        const started = performance.now()
        const response = await app.inject({ method: 'GET', url, headers: { cookie } })
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`)
        results[name]?.push(performance.now() - started)
      }
    }
    const line: Record<string, string> = {}
    for (const [name, ms] of Object.entries(results)) {
      ms.sort((a, b) => a - b)
      line[name] = `p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`
    }
    console.log(label.padEnd(34), JSON.stringify(line))
    return Object.fromEntries(Object.entries(results).map(([k, v]) => [k, percentile(v, 95)]))
  }

  async function store(content: string): Promise<number> {
    const started = performance.now()
    await app.db.insert(chatMessages).values({ conversationId: ids[0] ?? '', userId, isUser: false, content })
    return performance.now() - started
  }

  console.log(`${config.database.kind}, ${CONVERSATIONS} conversations, ${ROUNDS} rounds each`)
  const before = await time('baseline')
  const capped = await store(words(DEFAULT_LLM_MAX_TOKENS * ANSWER_CHARS_PER_TOKEN, 7))
  const long = await store(words(LONG_CHARS, 11))
  console.log(
    `storing an answer at the cap (${DEFAULT_LLM_MAX_TOKENS * ANSWER_CHARS_PER_TOKEN} chars): ${capped.toFixed(0)} ms;`,
    `a ${LONG_CHARS / 1e6} M-character one: ${long.toFixed(0)} ms`,
  )
  const after = await time(`with one ${LONG_CHARS / 1e6} M-character answer`)
  for (const name of ['list', 'search'])
    console.log(
      `${name}: p95 ${((after[name] ?? 0) / (before[name] ?? 1)).toFixed(2)}× the baseline (target ≤ 2×)`,
    )
} finally {
  await app.close()
}
