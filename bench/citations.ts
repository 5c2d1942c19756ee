/**
 * The citation check (issue 39, D128) on cited sentences made from real passages: the docs corpus
 * (fastify, undici, pino; English) and the German and French manuals Debian translates (the
 * corpora of bench/quality.ts, chunked as the product chunks them, each passage's language
 * detected as the product detects it). bench/citation-cases.ts makes faithful sentences
 * (restated, quoted) and corrupted ones (one figure, date, code or name changed; one quoted word
 * changed; cited to another passage given). Reported per language and per half (the tuning half,
 * looked at while the check was built, and the held-out half, not): recall of corrupted sentences
 * (anything but checked / nothing-to-check), false alarms on faithful ones (unverified or
 * repaired), repairs to the right passage, and the check's time on answers of 10 sentences and 10
 * passages. Usage: node bench/citations.ts [cases per language, default 400] [--old-names]
 * [--failures]
 */
import { performance } from 'node:perf_hooks'
import { checkCitations } from '../server/answering/citation-checks/check-citations.ts'
import type { CitationCheck } from '../server/answering/citation-checks/types.ts'
import { passageLanguages } from '../server/documents/index/languages.ts'
import { chunkDocument } from '../server/documents/reading/chunker.ts'
import { type Case, germanNames, type Language, makeCases } from './citation-cases.ts'
import { type CorpusName, corpusPages } from './quality-corpus.ts'

const COUNT = Number(process.argv[2] ?? 400)
/**
 * The generator before 2026-11-28's second change (D141): German "names" were any capitalised
 * word inside a sentence not after an article, which in German is mostly a noun ("dieser
 * Kleinschmidt" for "dieser Option"). Kept to compare: `--old-names`.
 */
const OLD_NAMES = process.argv.includes('--old-names')
const CORPORA: [CorpusName, Language][] = [
  ['docs', 'english'],
  ['manpages-de', 'german'],
  ['manpages-fr', 'french'],
]

async function passagesOf(corpus: CorpusName, language: Language) {
  const { pages } = corpusPages(corpus)
  const chunks = pages.flatMap((p) => chunkDocument([{ page: null, text: p.text }], { markdown: true }))
  const languages = await passageLanguages(chunks)
  return chunks
    .map((c, i) => ({ text: c.text, language: languages[i], id: i }))
    .filter((p) => p.language === language && p.text.length >= 200)
}

type Tally = { n: number; hit: number }
const tally = () => ({ n: 0, hit: 0 })
const pct = (t: Tally) => (t.n === 0 ? '—' : `${((100 * t.hit) / t.n).toFixed(1)} % (${t.hit}/${t.n})`)

function judge(c: Case): CitationCheck | null {
  const result = checkCitations({ answer: c.answer, passages: c.passages, language: c.language })
  if (!result.ok) throw result.error
  return result.checks[0] ?? null
}

const failures: string[] = []
const rows: string[] = []
const allCases: Case[] = []
for (const [corpus, language] of CORPORA) {
  const passages = await passagesOf(corpus, language)
  const names =
    language === 'german' && !OLD_NAMES
      ? germanNames(passages, await passagesOf('manpages-fr', 'french'))
      : undefined
  const cases = makeCases(passages, language, COUNT, 39, names)
  allCases.push(...cases)
  for (const half of ['tuning', 'held-out'] as const) {
    const recall = tally()
    const falseAlarms = tally()
    const repairs = tally()
    const nothing = tally()
    const checkable = tally()
    const byKind = new Map<string, Tally>()
    for (const c of cases.filter((x) => x.half === half)) {
      const check = judge(c)
      const outcome = check?.outcome ?? 'none'
      const alarm = outcome === 'unverified' || outcome === 'repaired'
      if (c.faithful) {
        falseAlarms.n++
        nothing.n++
        if (alarm) falseAlarms.hit++
        if (outcome === 'nothing-to-check') nothing.hit++
        if (alarm && half === 'tuning' && failures.length < 40)
          failures.push(
            `FA ${language} ${c.kind}: ${c.answer.slice(0, 160)} → ${outcome} ${check?.missing.join('; ')}`,
          )
      } else {
        recall.n++
        const kind = byKind.get(c.kind) ?? tally()
        kind.n++
        if (alarm) {
          recall.hit++
          kind.hit++
        } else if (half === 'tuning' && failures.length < 80)
          failures.push(`MISS ${language} ${c.kind}: ${c.answer.slice(0, 160)} → ${outcome}`)
        byKind.set(c.kind, kind)
        if (c.kind === 'wrong-passage') {
          repairs.n++
          const right = outcome === 'repaired' && check?.sourceIndex === c.source
          if (right) repairs.hit++
          // The same sentence cited rightly: a sentence with nothing to check cannot be caught.
          const rightly = judge({ ...c, answer: c.answer.replace(/\[\d+\]/, `[${c.source}]`) })
          if (rightly?.outcome === 'checked') {
            checkable.n++
            if (right) checkable.hit++
          }
        }
      }
    }
    const kinds = [...byKind].map(([k, t]) => `${k} ${pct(t)}`).join('; ')
    rows.push(
      `| ${language} | ${half} | ${pct(recall)} | ${pct(falseAlarms)} | ${pct(repairs)} | ${pct(checkable)} | ${pct(nothing)} | ${kinds} |`,
    )
  }
}

/** The check's time on answers of 10 sentences citing 10 passages (cases of one language put together). */
function timing(): { p50: number; p95: number; runs: number } {
  const times: number[] = []
  for (let i = 0; i + 10 <= allCases.length; i += 10) {
    const group = allCases.slice(i, i + 10)
    const first = group[0] as Case
    if (group.some((c) => c.language !== first.language)) continue
    const passages = group.flatMap((c) => c.passages).slice(0, 10)
    const answer = group.map((c) => c.answer.replace(/\[\d+\]/, `[${1 + (i % 10)}]`)).join(' ')
    const started = performance.now()
    checkCitations({ answer, passages, language: first.language })
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  return { p50: at(0.5), p95: at(0.95), runs: times.length }
}

if (process.argv.includes('--failures')) console.log(failures.join('\n'))
console.log(
  '| language | half | recall on corrupted (goal ≥ 95 %) | false alarms on faithful (≤ 3 %) | repairs to the right passage (≥ 90 %) | of those with something to check | faithful with nothing to check | recall per corruption |',
)
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |')
console.log(rows.join('\n'))
timing() // warm-up: the first answers pay for compiling the patterns
const t = timing()
console.log(
  `\nCheck time, answers of 10 sentences × 10 passages: p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms (${t.runs} answers)`,
)
