/**
 * What the retrieval-quality benches share: the corpus (the markdown documentation that ships in
 * three npm packages of the lockfile: fastify's docs/, undici's docs/docs/, pino's docs/),
 * indexed as one user's documents in an in-memory database exactly as the product indexes them;
 * its chunks as PostgreSQL analysed them (lexemes in text order); the judged question files of
 * bench/quality/; the reference BM25 rankings (minisearch over the same lexemes, passage level
 * and page level); and the page-level measures. Beside the markdown, three files only a reader
 * makes text of (D74, D75): a scanned PDF and a screenshot (read by OCR) and a workbook of three
 * tabs, under `extra/`, so questions can be judged against them too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import MiniSearch from 'minisearch'
import { openDatabase } from '../server/db/database.ts'
import { users } from '../server/db/schema.ts'
import type { Section } from '../server/documents/chunker.ts'
import { createDocumentReader } from '../server/documents/document-reader.ts'
import { indexDocument } from '../server/documents/index-document.ts'
import { workbookFile } from '../tests/fakes/google/xlsx.ts'
import { scannedPdf, textImage } from '../tests/fakes/scans.ts'

const MODULES = path.resolve(import.meta.dirname, '..', 'node_modules')
const CORPUS = ['fastify/docs', 'undici/docs/docs', 'pino/docs']

/** A question and its graded pages: 2 the page that answers, 1 a page that helps. */
export type Judged = { question: string; relevant: Record<string, number> }

/** A question file of bench/quality/ (path relative to bench/). */
export function loadQuestions(file: string): Judged[] {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, file), 'utf8')) as Judged[]
}

/** A chunk as stored, with its lexemes in text order (heading's first) and its heading's own. */
export type AnalysedChunk = {
  id: string
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

export async function loadQualityCorpus() {
  const pages = CORPUS.flatMap((d) => markdownFiles(path.join(MODULES, d))).map((file) => ({
    id: path.relative(MODULES, file),
    text: readFileSync(file, 'utf8'),
  }))
  const extras = await extraDocuments()
  const versions = ['fastify', 'undici', 'pino'].map(
    (p) => `${p} ${JSON.parse(readFileSync(path.join(MODULES, p, 'package.json'), 'utf8')).version}`,
  )
  const database = await openDatabase({ database: { kind: 'memory' }, dataDir: '/nonexistent' })
  const { db } = database
  const [user] = await db.insert(users).values({ email: 'bench@example.com', passwordHash: 'x' }).returning()
  if (!user) throw new Error('no user')
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
       from (select t.lexeme, unnest(t.positions) as p from unnest(c.tsv) as t) as x), '') as terms,
      coalesce((select string_agg(t.lexeme, ' ')
       from unnest(to_tsvector('english', coalesce(c.heading, ''))) as t), '') as heading_terms
    from document_chunks c join documents d on d.id = c.document_id
    order by d.external_id, c.ordinal`)) as unknown as {
    rows: (Omit<AnalysedChunk, 'terms' | 'headingTerms'> & { terms: string; heading_terms: string })[]
  }
  const words = (s: string) => s.split(' ').filter(Boolean)
  const chunks: AnalysedChunk[] = rows.map(({ terms, heading_terms, ...c }) => ({
    ...c,
    terms: words(terms),
    headingTerms: words(heading_terms),
  }))
  /** A text's lexemes as PostgreSQL's english configuration makes them, in text order. */
  const analyse = async (text: string): Promise<string[]> => {
    const { rows: r } = (await db.execute(sql`
      select coalesce(string_agg(t.lexeme, ' ' order by t.positions[1]), '') as terms
      from unnest(to_tsvector('english', ${text})) as t`)) as unknown as { rows: { terms: string }[] }
    return words(r[0]?.terms ?? '')
  }
  return { database, db, user, pages, versions, ingestMs, chunks, analyse }
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
