/**
 * A published assistant under its visitors (issue 37, D122): the real server (as `npm run serve`
 * starts it) and the OpenAI-compatible fake answering after D ms; BENCH_VISITORS visitors (200),
 * each a new anonymous visitor asking one question over the real HTTP visitor call, arriving
 * evenly over BENCH_SPREAD_MS (0: all at once), while the owner works in the app (`/auth/me` and
 * their conversation list, one call after another). The assistant's answersPerDay budget is
 * BENCH_BUDGET (150), under the visitors' number: exactly that many are answered, the rest get 429.
 * Before them, BENCH_ALONE (10) visitors ask one after another (the budget is raised by as many):
 * what one ask costs when nobody else asks.
 * PUBLISHED_CONCURRENCY is raised to the visitors' number, so every visitor admitted answers at
 * once and "busy" never stands in for the budget.
 * Figures: the answered visitors' first token (request sent → first `token` event) minus D, p50
 * and p95 (the app's own target: p95 ≤ D + 50 ms); the owner's p95 under the load against idle,
 * measured in the same run (target ≤ 1.5×); the budget's exactness.
 * Usage: node bench/widget.ts   (embedded PGlite)
 *   bash .ci/postgres.sh run -- node bench/widget.ts   (PostgreSQL: TEST_DATABASE_URL or
 *   BENCH_DATABASE_URL names a server where a fresh database is made, dropped at the end)
 *   BENCH_VISITORS (200), BENCH_BUDGET (150), BENCH_SPREAD_MS (5000), BENCH_FIRST_TOKEN_MS (D, 300),
 *   BENCH_IDLE_ROUNDS (100), BENCH_ALONE (10), BENCH_PORT (3280), BENCH_FAKE_LLM_PORT (3281)
 */
import { authEndpoints } from '../contracts/auth.ts'
import { chatEndpoints } from '../contracts/chat.ts'
import { fillPath } from '../contracts/endpoint.ts'
import { publicEndpoints } from '../contracts/publishing.ts'
import { startFakeLlm } from '../tests/fakes/openai-compatible.ts'
import { benchDatabase } from './bench-database.ts'
import { percentile } from './corpus.ts'
import { signedInCookie, startApp } from './lib.ts'

const VISITORS = Number(process.env.BENCH_VISITORS ?? 200)
const BUDGET = Number(process.env.BENCH_BUDGET ?? 150)
const SPREAD_MS = Number(process.env.BENCH_SPREAD_MS ?? 5000)
const D = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 300)
const IDLE_ROUNDS = Number(process.env.BENCH_IDLE_ROUNDS ?? 100)
/** Visitors asking one after another before the crowd: what one ask costs on this machine. */
const ALONE = Number(process.env.BENCH_ALONE ?? 10)
const API = '/api/v1'
const FACT = 'Staff get 27 days of annual leave a year, plus public holidays.'

// .ci/postgres.sh names its server TEST_DATABASE_URL.
if (!process.env.BENCH_DATABASE_URL && process.env.TEST_DATABASE_URL)
  process.env.BENCH_DATABASE_URL = process.env.TEST_DATABASE_URL
const database = await benchDatabase('widget')
const fake = await startFakeLlm({ port: Number(process.env.BENCH_FAKE_LLM_PORT ?? 3281) })
fake.reply({
  kind: 'text',
  text: 'Staff get 27 days of annual leave a year [1], plus the public holidays of their region.',
  firstTokenDelayMs: D,
  tokenDelayMs: 5,
})
const server = await startApp(Number(process.env.BENCH_PORT ?? 3280), {
  ...database.env,
  LLM_BASE_URL: fake.baseUrl,
  LLM_MODEL: 'fake-model',
  PUBLISHED_CONCURRENCY: String(VISITORS),
})
const url = server.url

type Visit = { status: number; firstTokenMs: number; outcome: string; retryAfter: string | null }

async function json(path: string, cookie: string, method = 'GET', body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** The owner's published assistant over one small document (uploads are at least 10 KB); its public id. */
async function publishedAssistant(cookie: string): Promise<string> {
  const notes = Array.from(
    { length: 160 },
    (_, i) => `Note ${i + 1}: the kitchen on floor ${(i % 5) + 1} is cleaned on Friday afternoons.`,
  )
  const form = new FormData()
  form.append('file', new Blob([[FACT, ...notes].join('\n\n')], { type: 'text/plain' }), 'leave.txt')
  const upload = await fetch(`${url}${API}/documents/upload`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  })
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`)
  const documentId = ((await upload.json()) as { data: { id: string } }).data.id
  for (;;) {
    const library = (await json(`${API}/documents`, cookie)) as {
      data: { documents: { id: string; status: string }[] }
    }
    if (library.data.documents.find((d) => d.id === documentId)?.status === 'ready') break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const created = (await json(`${API}/assistants`, cookie, 'POST', {
    name: 'Leave bot',
    description: 'Answers questions about leave.',
    knowledge: { documentIds: [documentId], folderIds: [] },
    starterQuestions: [],
  })) as { data: { _id: string } }
  const id = created.data._id
  const budgets = {
    answersPerDay: BUDGET + ALONE,
    tokensPerDay: 100_000_000,
    visitorAnswersPerHour: 20,
    visitorAnswersPerDay: 50,
  }
  const patched = (await json(`${API}/assistants/${id}`, cookie, 'PATCH', { published: true, budgets })) as {
    data: { publicId: string }
  }
  return patched.data.publicId
}

/** A new anonymous visitor asks one question; first token timed from when the request is sent. */
async function visit(publicId: string, n: number): Promise<Visit> {
  const started = performance.now()
  const response = await fetch(`${url}${fillPath(publicEndpoints.ask.path, { publicId })}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: `Visitor ${n}: how many days of annual leave do staff get?` }),
  })
  const retryAfter = response.headers.get('retry-after')
  if (response.status !== 200 || !response.body) {
    await response.text()
    return { status: response.status, firstTokenMs: Number.NaN, outcome: 'refused', retryAfter }
  }
  let firstTokenMs = Number.NaN
  let text = ''
  const decoder = new TextDecoder()
  for await (const piece of response.body) {
    text += decoder.decode(piece, { stream: true })
    if (Number.isNaN(firstTokenMs) && text.includes('event: token'))
      firstTokenMs = performance.now() - started
  }
  const outcome = /event: (done|error)\n/.exec(text)?.[1] ?? 'cut'
  return { status: 200, firstTokenMs, outcome, retryAfter }
}

type OwnerTimes = { me: number[]; list: number[] }

/** The owner's calls, one after another, until `until` says stop (or `rounds` rounds). */
async function ownerWorks(cookie: string, times: OwnerTimes, until: () => boolean): Promise<void> {
  const timed = async (list: number[], path: string) => {
    const started = performance.now()
    const response = await fetch(`${url}${path}`, { headers: { cookie } })
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${path}: ${response.status}`)
    list.push(performance.now() - started)
  }
  while (!until()) {
    await timed(times.me, authEndpoints.me.path)
    await timed(times.list, chatEndpoints.listConversations.path)
  }
}

/** A stop condition true after `n` rounds. */
function afterRounds(n: number): () => boolean {
  let done = 0
  return () => done++ >= n
}

const sorted = (values: number[]) => values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
const ms = (v: number) => v.toFixed(0)

try {
  const cookie = await signedInCookie(url)
  for (let i = 0; i < 20; i++)
    await json(chatEndpoints.createConversation.path, cookie, 'POST', { title: `Work ${i}` })
  const publicId = await publishedAssistant(cookie)
  // Warm-up: the owner's calls only (a visitor's answer would count against the budget).
  await ownerWorks(cookie, { me: [], list: [] }, afterRounds(20))
  const idle: OwnerTimes = { me: [], list: [] }
  await ownerWorks(cookie, idle, afterRounds(IDLE_ROUNDS))

  // The visitors alone, one after another: their answers take the budget's first ALONE places.
  const alone: Visit[] = []
  for (let n = 0; n < ALONE; n++) alone.push(await visit(publicId, -1 - n))
  if (alone.some((r) => r.outcome !== 'done')) throw new Error('a visitor alone was not answered')

  const loaded: OwnerTimes = { me: [], list: [] }
  let visitorsDone = false
  const started = performance.now()
  const visits = Promise.all(
    Array.from({ length: VISITORS }, async (_, n) => {
      const wait = SPREAD_MS * (n / VISITORS) - (performance.now() - started)
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      return visit(publicId, n)
    }),
  ).finally(() => {
    visitorsDone = true
  })
  await ownerWorks(cookie, loaded, () => visitorsDone)
  const results = await visits
  const seconds = (performance.now() - started) / 1000

  const answered = results.filter((r) => r.outcome === 'done')
  const refused = results.filter((r) => r.status === 429)
  const other = results.filter((r) => r.outcome !== 'done' && r.status !== 429)
  const first = sorted(answered.map((r) => r.firstTokenMs - D))
  console.log(`\nnode ${process.version}; ${database.label}; fake model first token after D = ${D} ms`)
  console.log(
    `${VISITORS} visitors, one question each, arriving over ${SPREAD_MS} ms (all done after ${seconds.toFixed(1)} s); answersPerDay budget ${BUDGET} after the ${ALONE} alone; PUBLISHED_CONCURRENCY ${VISITORS}\n`,
  )
  const solo = sorted(alone.map((r) => r.firstTokenMs - D))
  console.log(
    `One visitor at a time (${solo.length}, before the crowd): first token - D p50 ${ms(percentile(solo, 50))} ms, p95 ${ms(percentile(solo, 95))} ms`,
  )
  console.log(
    `Visitors' first token - D: p50 ${ms(percentile(first, 50))} ms, p95 ${ms(percentile(first, 95))} ms, max ${ms(first.at(-1) ?? Number.NaN)} ms (n=${first.length}; target p95 ≤ 50 ms)`,
  )
  const exact = answered.length === BUDGET && refused.length === VISITORS - BUDGET && other.length === 0
  console.log(
    `Budget: answered ${answered.length} (budget ${BUDGET}), refused with 429 ${refused.length} (Retry-After on ${refused.filter((r) => r.retryAfter !== null).length}), other ${other.length} (${other.map((r) => `${r.status}/${r.outcome}`).join(', ') || 'none'}): ${exact ? 'exact' : 'NOT exact'}\n`,
  )
  console.log(
    "| the owner's call | idle p50 ms | idle p95 ms | under the visitors p50 ms | under the visitors p95 ms | p95 ratio (target ≤ 1.5) |",
  )
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const [name, key] of [
    ['GET /auth/me', 'me'],
    ['GET /chat/sessions/all', 'list'],
  ] as const) {
    const a = sorted(idle[key])
    const b = sorted(loaded[key])
    console.log(
      `| ${name} (${a.length} idle, ${b.length} loaded) | ${percentile(a, 50).toFixed(1)} | ${percentile(a, 95).toFixed(1)} | ${percentile(b, 50).toFixed(1)} | ${percentile(b, 95).toFixed(1)} | ${(percentile(b, 95) / percentile(a, 95)).toFixed(2)} |`,
    )
  }
  console.log(`\nFake model: ${fake.requests.length} completion calls.`)
} finally {
  await server.stop()
  await fake.close()
  await database.drop()
}
