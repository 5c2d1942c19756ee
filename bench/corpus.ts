/**
 * Generated text for the retrieval benchmarks: a seeded xorshift PRNG, so every run searches the
 * same corpus with the same questions; Zipf-distributed words as in real prose — function words
 * first (to_tsvector drops them), then office vocabulary, then a long tail of made-up names and
 * jargon — optionally with codes that occur once, as the Drive fixtures' facts do.
 */
import { performance } from 'node:perf_hooks'
import type { Db } from '../server/db/database.ts'
import { users } from '../server/db/schema.ts'
import type { DocumentInput, IndexedChunk } from '../server/documents/index/passage-writes-repository.ts'

export const FUNCTION_WORDS =
  'the of and to a in is for on that with by as are be this or at from it an'.split(' ')

export const OFFICE_WORDS = (
  'employee manager policy travel expense allowance meal hotel flight train receipt reimbursement ' +
  'approval deadline budget invoice contract supplier payment customer account security password ' +
  'device laptop network access leave parental holiday sick vacation salary bonus pension insurance ' +
  'health office desk parking bicycle commute remote schedule meeting project report quarter annual ' +
  'review goal training course certificate onboarding handbook procedure safety fire emergency exit ' +
  'building visitor badge data privacy retention backup archive document signature legal compliance ' +
  'audit risk incident response escalation support ticket release deployment server database ' +
  'monitoring alert outage maintenance upgrade license software hardware purchase order delivery ' +
  'warehouse inventory shipping return refund warranty quality standard product feature roadmap'
).split(' ')

const SYLLABLES = 'ka lo mi ne ru sa te vi zo qua bre dri fla gro ple tri vex mor dal pen'.split(' ')

export type CorpusOptions = {
  seed: number
  /** How many made-up words the long tail holds. */
  tailSize: number
  /** Vocabulary after OFFICE_WORDS (a benchmark may want a wider office vocabulary). */
  extraWords?: readonly string[]
  /** Share of sentences that state a fact with a unique code ("code ABCD-1001"); 0 for none. */
  codeRate?: number
}

export type Corpus = ReturnType<typeof createCorpus>

/** A seeded xorshift PRNG (0 <= x < 1) and a pick from a list by it: the same run every time. */
export function seededRandom(seed: number) {
  let state = seed
  function random(): number {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4294967296
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  return { random, pick }
}

export function createCorpus({ seed, tailSize, extraWords = [], codeRate = 0 }: CorpusOptions) {
  const { random, pick } = seededRandom(seed)

  const words = [...OFFICE_WORDS, ...extraWords]
  const tail = Array.from({ length: tailSize }, () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join(''),
  )
  const vocabulary = [...FUNCTION_WORDS, ...words, ...tail]
  // Zipf (s = 1.05): the cumulative weights, searched by bisection.
  const cumulative: number[] = []
  let total = 0
  for (let rank = 0; rank < vocabulary.length; rank++) {
    total += 1 / (rank + 1) ** 1.05
    cumulative.push(total)
  }
  function zipfWord(): string {
    const target = random() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1
      else hi = mid
    }
    return vocabulary[lo] ?? 'the'
  }

  let codeCounter = 0
  function sentence(): string {
    const picked = Array.from({ length: 8 + Math.floor(random() * 14) }, zipfWord)
    if (codeRate > 0 && random() < codeRate)
      picked.push('code', `${pick(tail).toUpperCase()}-${1000 + codeCounter++}`)
    const text = picked.join(' ')
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  }

  /** About `chars` characters of sentences: the chunker makes it one chunk. */
  function paragraph(chars: number): string {
    let text = ''
    while (text.length < chars - 60) text += `${sentence()} `
    return text.trim()
  }

  return { random, pick, words, tail, sentence, paragraph }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

/** Runs `fn` `runs` times one after another: p50, p95 and max in ms, and each run's time in order. */
export async function timed(runs: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await fn(i)
    times.push(performance.now() - t)
  }
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0, times }
}

/**
 * `count` accounts (bench-0@example.com, bench-1@…) straight in the users table, for the
 * retrieval benches that index passages without going through sign-up; their ids in order.
 */
export async function insertBenchUsers(db: Db, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const [row] = await db
      .insert(users)
      .values({ email: `bench-${i}@example.com`, passwordHash: 'not-a-hash' })
      .returning({ id: users.id })
    if (row) ids.push(row.id)
  }
  return ids
}

/** `count` generated passages of about `chars` characters on pages of three, a heading every 20th. */
export function benchChunks(
  corpus: Corpus,
  count: number,
  chars: number,
  language = 'english',
): IndexedChunk[] {
  return Array.from({ length: count }, (_, ordinal) => ({
    ordinal,
    text: corpus.paragraph(chars),
    page: 1 + Math.floor(ordinal / 3),
    heading: ordinal % 20 === 0 ? `${corpus.pick(corpus.words)} ${corpus.pick(corpus.words)}` : null,
    language,
  }))
}

/** The retrieval benches' generated document number `d` of a person. */
export function benchDocument(userId: string, d: number): DocumentInput {
  return {
    userId,
    source: 'bench',
    externalId: `doc-${d}`,
    name: `Document ${d}.pdf`,
    mimeType: 'application/pdf',
    link: null,
    version: '1',
    modifiedTime: null,
  }
}

/** The question shapes of the retrieval benches, filled with four words. */
export const QUESTION_TEMPLATES = [
  (w: string[]) => `What is the ${w[0]} ${w[1]} for ${w[2]}?`,
  (w: string[]) => `How do I get ${w[0]} approved when the ${w[1]} is ${w[2]}?`,
  (w: string[]) => `Can you summarise what my documents say about ${w[0]} and ${w[1]}?`,
  (w: string[]) => `Is there a ${w[0]} limit on ${w[1]} ${w[2]} ${w[3]}?`,
  (w: string[]) => `${w[0]} ${w[1]}`,
  (w: string[]) => `"${w[0]} ${w[1]}"`,
  (w: string[]) => `Who is responsible for the ${w[0]} ${w[1]} procedure during ${w[2]}?`,
]

/**
 * A varied question for the retrieval benches: words from a real passage (so there is an
 * answer, 80 %), its code if it has one (15 %), or common words; `corpus`'s own random numbers,
 * so the same run asks the same questions.
 */
export function benchQuestion(corpus: Corpus, samples: readonly string[]): string {
  const { random, pick, words: vocabulary } = corpus
  const roll = random()
  const sample = pick(samples)
  const code = /[A-Z]{4,}-\d+/.exec(sample)?.[0]
  if (roll < 0.15 && code) return `What is the ${pick(vocabulary)} code ${code}?`
  const source = roll < 0.8 ? (sample.toLowerCase().match(/[a-z]+/g) ?? []) : []
  const content = source.filter((w) => !FUNCTION_WORDS.includes(w))
  const words = Array.from({ length: 4 }, () => (content.length > 0 ? pick(content) : pick(vocabulary)))
  return pick(QUESTION_TEMPLATES)(words)
}
