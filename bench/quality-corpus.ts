/**
 * What the retrieval-quality benches share: the corpus, indexed as one user's documents in an
 * in-memory database exactly as the product indexes them (language detection included); its
 * chunks as PostgreSQL analyses them in the corpus's language (lexemes in text order); the
 * judged question files of bench/quality/; the reference BM25 rankings (minisearch over those
 * lexemes, passage level and page level); and the page-level measures.
 *
 * Corpora: 'docs', the markdown documentation that ships in three npm packages of the lockfile
 * (fastify's docs/, undici's docs/docs/, pino's docs/), English; 'manpages-de' and
 * 'manpages-fr', the German and French translations of 130 command manuals that Debian ships in
 * its manpages-de and manpages-fr packages (`apt-get install manpages-de manpages-fr`, read from
 * /usr/share/man/<language>/ and rendered with groff; GPL-3+, not copied into this repository).
 * Beside the docs' markdown, three files only a reader makes text of (D74, D75): a scanned PDF and
 * a screenshot (read by OCR) and a workbook of three tabs, under `extra/`, so questions can be
 * judged against them too.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import MiniSearch from 'minisearch'
import { openDatabase } from '../server/db/database.ts'
import { users } from '../server/db/schema.ts'
import { indexDocument } from '../server/documents/index/index-document.ts'
import type { Section } from '../server/documents/reading/chunker.ts'
import { createDocumentReader } from '../server/documents/reading/document-reader.ts'
import { workbookFile } from '../tests/fakes/google/xlsx.ts'
import { scannedPdf, textImage } from '../tests/fakes/scans.ts'

const MODULES = path.resolve(import.meta.dirname, '..', 'node_modules')
const CORPUS = ['fastify/docs', 'undici/docs/docs', 'pino/docs']

export type CorpusName = 'docs' | 'manpages-de' | 'manpages-fr'
/** The text search configuration the reference BM25 analyses a corpus with (its language's stemmer). */
export const CORPUS_LANGUAGE: Record<CorpusName, string> = {
  docs: 'english',
  'manpages-de': 'german',
  'manpages-fr': 'french',
}
/** The corpus a question file is about: manpages-de*.json, manpages-fr*.json, otherwise the docs. */
export function corpusOf(file: string): CorpusName {
  const name = path.basename(file)
  if (name.startsWith('manpages-de')) return 'manpages-de'
  if (name.startsWith('manpages-fr')) return 'manpages-fr'
  return 'docs'
}

/** The commands whose manuals make the man-page corpora (the same list in both languages). */
export const MANUALS = (
  'cat chage chfn chgrp chmod chown chsh cmp comm cp crontab csplit cut date dd df diff diff3 dmesg du ' +
  'echo env expand expr factor fallocate file find flock fmt fold free fuser getopt groups gzip head id ' +
  'ionice join kill killall last ln locale logger login ls lscpu man md5sum mesg mkdir mkfifo mktemp more ' +
  'mv nano newgrp nice nl nohup nproc numfmt od passwd paste pidof pmap pr printenv printf ps pstree pwd ' +
  'readlink realpath renice rm rmdir script sed seq setsid sha256sum shred shuf sleep sort split stat stty ' +
  'su tac tail tar tee test timeout tr truncate tty uname uniq unlink uptime users w wall watch wc whereis ' +
  'which who whoami xz yes bzip2 apropos whatis dpkg dpkg-query update-alternatives vim grep'
).split(' ')

/**
 * A manual as a person would keep it: groff's plain text, its section titles (NAME, SYNOPSIS…,
 * in the translation's words) as markdown headings.
 */
function manualText(file: string): string {
  const out = execFileSync(
    'sh',
    ['-c', `zcat "$0" | groff -k -Kutf8 -man -Tutf8 -P-cbou -rLL=3000n -rHY=0 2>/dev/null`, file],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  return out
    .split('\n')
    .slice(1, -2)
    .map((line) => (/^\S/.test(line) ? `## ${line.trim()}` : line.replace(/^ {7}/, '').trimEnd()))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function manualPages(language: 'de' | 'fr'): { id: string; text: string }[] {
  const root = `/usr/share/man/${language}`
  if (!existsSync(root))
    throw new Error(
      `${root} is missing: apt-get install manpages-${language} (and groff-base), then run again`,
    )
  return MANUALS.flatMap((command) => {
    for (const section of ['1', '8', '5']) {
      const file = path.join(root, `man${section}`, `${command}.${section}.gz`)
      if (existsSync(file)) return [{ id: `${command}.${section}`, text: manualText(file) }]
    }
    return []
  })
}

export function corpusPages(corpus: CorpusName): {
  pages: { id: string; text: string }[]
  versions: string[]
} {
  if (corpus !== 'docs') {
    const language = corpus === 'manpages-de' ? 'de' : 'fr'
    // dpkg-query's own format field, not a template.
    const format = ['$', '{Version}'].join('')
    const version = execFileSync('dpkg-query', ['-W', '-f', format, `manpages-${language}`], {
      encoding: 'utf8',
    })
    return { pages: manualPages(language), versions: [`manpages-${language} ${version}`] }
  }
  const pages = CORPUS.flatMap((d) => markdownFiles(path.join(MODULES, d))).map((file) => ({
    id: path.relative(MODULES, file),
    text: readFileSync(file, 'utf8'),
  }))
  const versions = ['fastify', 'undici', 'pino'].map(
    (p) => `${p} ${JSON.parse(readFileSync(path.join(MODULES, p, 'package.json'), 'utf8')).version}`,
  )
  return { pages, versions }
}

/**
 * A question and its graded pages: 2 the page that answers, 1 a page that helps. A question of
 * the typo sets (quality/typos*.json) has misspelled words, and the same question spelled right.
 */
export type Judged = { question: string; relevant: Record<string, number>; spelledRight?: string }

/** A question file of bench/quality/ (path relative to bench/). */
export function loadQuestions(file: string): Judged[] {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, file), 'utf8')) as Judged[]
}

/** A chunk as stored, with its lexemes in text order (heading's first) and its heading's own. */
export type AnalysedChunk = {
  id: string
  /** The language the product indexed it in (detected). */
  language: string
  page: string
  ordinal: number
  text: string
  heading: string | null
  terms: string[]
  headingTerms: string[]
}

/** The files the reader makes text of, read as the product reads them (OCR on, English). */
async function extraDocuments(): Promise<{ id: string; mimeType: string; sections: Section[] }[]> {
  const reader = createDocumentReader({ ocr: { languages: 'eng', maxPages: 10, pageTimeMs: 120_000 } })
  try {
    const scan = await scannedPdf([
      ['Lighthouse maintenance contract', 'Northwind Optics services the lens and the lamp twice a year.'],
      ['Payment terms', 'A deposit of 4,250 euros is due when the contract is signed.'],
    ])
    const screenshot = await textImage([
      'Error 502 Bad Gateway',
      'The proxy waited 60 seconds for the billing service, then gave up.',
    ])
    const workbook = workbookFile([
      {
        name: 'Summary',
        rows: [
          ['Item', 'Amount'],
          ['Servers', 1200],
          ['Travel', 800],
        ],
      },
      {
        name: 'By region',
        rows: [
          ['Region', 'Revenue'],
          ['North', 950],
          ['South', 700],
        ],
      },
      {
        name: 'Forecast',
        rows: [
          ['Source', 'Expected', 'Confidence'],
          ['Harbour grant', 5000, 'high'],
          ['Ticket sales', 1800, 'medium'],
        ],
      },
    ])
    return [
      {
        id: 'extra/lighthouse-contract-scan.pdf',
        mimeType: 'application/pdf',
        sections: (await reader.read('pdf', scan)).sections,
      },
      {
        id: 'extra/gateway-error.png',
        mimeType: 'image/png',
        sections: (await reader.read('image', screenshot)).sections,
      },
      {
        id: 'extra/budget-2027.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        sections: (await reader.read('workbook', workbook)).sections,
      },
    ]
  } finally {
    await reader.close()
  }
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return markdownFiles(full)
    return name.endsWith('.md') ? [full] : []
  })
}

export async function loadQualityCorpus(corpus: CorpusName = 'docs') {
  const { pages, versions } = corpusPages(corpus)
  const language = CORPUS_LANGUAGE[corpus]
  const database = await openDatabase({ database: { kind: 'memory' }, dataDir: '/nonexistent' })
  const { db } = database
  const [user] = await db.insert(users).values({ email: 'bench@example.com', passwordHash: 'x' }).returning()
  if (!user) throw new Error('no user')
  const extras = corpus === 'docs' ? await extraDocuments() : []
  const started = performance.now()
  const markdown = pages.map(({ id, text }) => ({
    id,
    mimeType: 'text/markdown',
    sections: [{ page: null, text }],
  }))
  for (const document of [...markdown, ...extras])
    await indexDocument(db, {
      userId: user.id,
      source: 'bench',
      externalId: document.id,
      name: document.id,
      mimeType: document.mimeType,
      sections: document.sections,
    })
  pages.push(...extras.map(({ id, sections }) => ({ id, text: sections.map((s) => s.text).join('\n\n') })))
  const ingestMs = performance.now() - started
  const { rows } = (await db.execute(sql`
    select c.id, d.external_id as page, c.ordinal, c.text, c.heading,
      coalesce((select string_agg(x.lexeme, ' ' order by x.p)
       from (select t.lexeme, unnest(t.positions) as p
             from unnest(setweight(to_tsvector(${language}::regconfig, coalesce(c.heading, '')), 'A')
               || setweight(to_tsvector(${language}::regconfig, c.text), 'B')) as t) as x), '') as terms,
      coalesce((select string_agg(t.lexeme, ' ')
       from unnest(to_tsvector(${language}::regconfig, coalesce(c.heading, ''))) as t), '') as heading_terms,
      c.language::text as language
    from document_chunks c join documents d on d.id = c.document_id
    order by d.external_id, c.ordinal`)) as unknown as {
    rows: (Omit<AnalysedChunk, 'terms' | 'headingTerms'> & { terms: string; heading_terms: string })[]
  }
  const languages = new Map<string, number>()
  for (const r of rows) languages.set(r.language, (languages.get(r.language) ?? 0) + 1)
  const words = (s: string) => s.split(' ').filter(Boolean)
  const chunks: AnalysedChunk[] = rows.map(({ terms, heading_terms, ...c }) => ({
    ...c,
    terms: words(terms),
    headingTerms: words(heading_terms),
  }))
  /** A text's lexemes as PostgreSQL's configuration for the corpus's language makes them, in text order. */
  const analyse = async (text: string): Promise<string[]> => {
    const { rows: r } = (await db.execute(sql`
      select coalesce(string_agg(t.lexeme, ' ' order by t.positions[1]), '') as terms
      from unnest(to_tsvector(${language}::regconfig, ${text})) as t`)) as unknown as {
      rows: { terms: string }[]
    }
    return words(r[0]?.terms ?? '')
  }
  return { database, db, user, pages, versions, ingestMs, chunks, analyse, languages, language }
}

/**
 * Reference BM25 (minisearch 7, BM25+ with its defaults) over the same lexemes as the product:
 * over the chunks (a page counts at its first passage) and over whole pages.
 */
export function referenceBm25(chunks: readonly AnalysedChunk[]) {
  const index = () =>
    new MiniSearch<{ id: string; terms: string }>({
      fields: ['terms'],
      idField: 'id',
      tokenize: (s) => s.split(' ').filter(Boolean),
      processTerm: (t) => t,
    })
  const passages = index()
  passages.addAll(chunks.map((c) => ({ id: c.id, terms: c.terms.join(' ') })))
  const pageTerms = new Map<string, string[]>()
  for (const c of chunks) pageTerms.set(c.page, [...(pageTerms.get(c.page) ?? []), c.terms.join(' ')])
  const pages = index()
  pages.addAll([...pageTerms].map(([id, t]) => ({ id, terms: t.join(' ') })))
  const byId = new Map(chunks.map((c) => [c.id, c]))
  return {
    /** The chunks, best first. */
    passages: (terms: readonly string[]) =>
      passages.search(terms.join(' ')).flatMap((h) => byId.get(String(h.id)) ?? []),
    /** The pages, best first. */
    pages: (terms: readonly string[]) => pages.search(terms.join(' ')).map((h) => String(h.id)),
  }
}

export const unique = (ids: readonly string[]) => [...new Set(ids)]

/** nDCG@k with gains 2^grade - 1. */
export function ndcg(ranked: readonly string[], relevant: Record<string, number>, k = 10): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((s, id, i) => s + (2 ** (relevant[id] ?? 0) - 1) / Math.log2(i + 2), 0)
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}
