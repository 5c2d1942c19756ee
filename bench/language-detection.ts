/**
 * Which language detector tells short texts apart best (D82): ELD (`eld`, each of its n-gram
 * tables), tinyld (full and light) and franc-min, on texts whose language is known: passages of
 * the manuals Debian translates (English, German, French, Spanish, Italian, Dutch; every seventh
 * manual of man1, at most 40 per language) cut three ways — 4 to 8 words, a sentence of up to 160
 * characters, a passage of up to 800 — and the judged questions of bench/quality (English, German,
 * French). Accuracy and time per text; each detector runs in its own process so its memory is its
 * own (heap after loading it).
 * Needs `apt-get install manpages-de manpages-fr manpages-es manpages-it manpages-nl groff-base`.
 * Usage: node bench/language-detection.ts
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { seededRandom } from './corpus.ts'

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const
const DETECTORS = [
  'eld/large',
  'eld/medium',
  'eld/small',
  'eld/extrasmall',
  'tinyld',
  'tinyld/light',
  'franc-min',
]
/** franc answers ISO 639-3. */
const ISO3: Record<string, string> = { eng: 'en', deu: 'de', fra: 'fr', spa: 'es', ita: 'it', nld: 'nl' }

type Sample = { language: string; text: string }

function manualText(file: string): string {
  return execFileSync(
    'sh',
    ['-c', `zcat "$0" | groff -k -Kutf8 -man -Tutf8 -P-cbou -rLL=3000n -rHY=0 2>/dev/null`, file],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
}

function samples(): Record<string, Sample[]> {
  const { random } = seededRandom(7)
  const out: Record<string, Sample[]> = { words: [], sentence: [], passage: [], question: [] }
  for (const language of LANGUAGES) {
    const dir = language === 'en' ? '/usr/share/man/man1' : `/usr/share/man/${language}/man1`
    if (!existsSync(dir)) throw new Error(`${dir} is missing: apt-get install manpages-${language}`)
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.gz'))
      .sort()
      .filter((_, i) => i % 7 === 0)
      .slice(0, 40)
    for (const file of files) {
      const paragraphs = manualText(path.join(dir, file))
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter((p) => /\p{L}{3}/u.test(p) && !/^[A-ZÄÖÜÉ -]+$/u.test(p))
      const prose = paragraphs.filter((p) => p.length > 60)
      if (prose.length === 0) continue
      const paragraph = prose[Math.floor(random() * prose.length)] as string
      const words = paragraph.split(' ')
      const start = Math.floor(random() * Math.max(1, words.length - 6))
      out.words?.push({ language, text: words.slice(start, start + 4 + Math.floor(random() * 5)).join(' ') })
      out.sentence?.push({ language, text: paragraph.slice(0, 160) })
      out.passage?.push({ language, text: paragraphs.join('\n\n').slice(0, 800) })
    }
  }
  const quality = path.join(import.meta.dirname, 'quality')
  for (const [file, language] of [
    ['questions.json', 'en'],
    ['holdout.json', 'en'],
    ['holdout2.json', 'en'],
    ['manpages-de.json', 'de'],
    ['manpages-fr.json', 'fr'],
  ] as const)
    for (const q of JSON.parse(readFileSync(path.join(quality, file), 'utf8')) as { question: string }[])
      out.question?.push({ language, text: q.question })
  return out
}

async function detector(name: string): Promise<(text: string) => string> {
  if (name.startsWith('eld/')) {
    const { eld } = (await import(name)) as typeof import('eld/extrasmall')
    return (text) => eld.detect(text).language
  }
  if (name.startsWith('tinyld')) {
    const { detect } = (await import(name)) as typeof import('tinyld')
    return (text) => detect(text)
  }
  const { franc } = await import('franc-min')
  return (text) => ISO3[franc(text, { minLength: 3 })] ?? ''
}

const child = process.argv[2]
if (child) {
  // One detector, in a process of its own: its accuracy, its time and the heap it holds.
  const texts = JSON.parse(readFileSync(0, 'utf8')) as Record<string, Sample[]>
  const before = process.memoryUsage().heapUsed
  const detect = await detector(child)
  detect('warm up')
  const heap = process.memoryUsage().heapUsed - before
  const row: string[] = [child, `${(heap / 1e6).toFixed(0)} MB`]
  for (const list of Object.values(texts)) {
    const started = performance.now()
    const right = list.filter((s) => detect(s.text) === s.language).length
    const ms = (performance.now() - started) / list.length
    row.push(`${((100 * right) / list.length).toFixed(1)} % (${ms.toFixed(2)} ms)`)
  }
  console.log(`| ${row.join(' | ')} |`)
} else {
  const texts = samples()
  const counts = Object.entries(texts).map(([kind, list]) => `${kind} ${list.length}`)
  console.log(`texts: ${counts.join(', ')} (${LANGUAGES.join(', ')})\n`)
  console.log('| detector | heap | 4–8 words | a sentence | a passage | a question |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const name of DETECTORS)
    process.stdout.write(
      execFileSync(process.execPath, [import.meta.filename, name], {
        input: JSON.stringify(texts),
        encoding: 'utf8',
      }),
    )
}
