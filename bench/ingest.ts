/**
 * Drive ingest throughput: a generated 300-page text PDF (pdf-lib) served by the Google emulator,
 * ingested through the real route (list → download → pdf.js in the reader process → chunk → index in
 * embedded PGlite on a scratch directory), against bare unpdf text extraction of the same bytes on
 * the main thread, measured in the same run. Target: ingest pages/s >= 0.5x the bare extraction.
 * Usage: node bench/ingest.ts [pages] [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { extractText, getDocumentProxy } from 'unpdf'
import { driveEndpoints, IngestReportSchema } from '../contracts/drive.ts'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { createGoogleEmulator } from '../tests/fakes/google/emulator.ts'
import { ADA, MIME } from '../tests/fakes/google/fixtures.ts'
import { seededRandom } from './corpus.ts'
import { connectedBenchUser } from './drive-user.ts'

const PAGES = Number(process.argv[2] ?? 300)
const RUNS = Number(process.argv[3] ?? 3)
const LINES_PER_PAGE = 36
const PUBLIC_URL = 'http://127.0.0.1:3000'

// Deterministic prose: a seeded PRNG over an office vocabulary, so every run reads the same PDF.
const { pick } = seededRandom(0x9e3779b9)
const WORDS = (
  'the of and to in for on with project budget review launch balloon sensor wind humidity coastal ' +
  'town report schedule team pier hangar survey contract supplier invoice approval deadline quarter ' +
  'release checklist meeting decision action owner risk incident network station data archive'
).split(' ')
const line = () =>
  Array.from({ length: 14 }, () => pick(WORDS))
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase())

async function bigPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842])
    page.drawText(`Section ${p}: field report`, { x: 50, y: 790, size: 14, font })
    for (let i = 0; i < LINES_PER_PAGE; i++) {
      page.drawText(`${line()}.`, { x: 50, y: 760 - i * 20, size: 10, font })
    }
  }
  return doc.save()
}

async function bareExtraction(bytes: Uint8Array): Promise<{ seconds: number; pages: number }> {
  const started = performance.now()
  const pdf = await getDocumentProxy(bytes.slice())
  const { text } = await extractText(pdf, { mergePages: false })
  await pdf.cleanup()
  return { seconds: (performance.now() - started) / 1000, pages: text.length }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

const bytes = await bigPdf(PAGES)
const emulator = await createGoogleEmulator({ fixtures: false })
const dir = mkdtempSync(path.join(tmpdir(), 'docchat-bench-ingest-'))
const app = await buildApp(
  loadConfig({
    DATA_DIR: dir,
    APP_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    PUBLIC_URL,
    GOOGLE_EMULATOR_URL: emulator.url,
    GOOGLE_CLIENT_ID: emulator.clientId,
    GOOGLE_CLIENT_SECRET: emulator.clientSecret,
  }),
  { logger: false },
)
try {
  const file = emulator.state.addFile({
    owner: ADA,
    name: 'field-reports.pdf',
    mimeType: MIME.pdf,
    content: bytes,
  })
  const { email, cookie } = await connectedBenchUser(app)

  const ingestSeconds: number[] = []
  const bareSeconds: number[] = []
  let chunks = 0
  for (let run = 0; run < RUNS; run++) {
    // A new version each run, so every run downloads, extracts and re-indexes the whole PDF.
    if (run > 0) emulator.state.updateFile(file.id, { content: bytes })
    const started = performance.now()
    const response = await app.inject({
      method: 'POST',
      url: driveEndpoints.ingestDocuments.path,
      headers: { cookie },
      payload: { email },
    })
    ingestSeconds.push((performance.now() - started) / 1000)
    const report = IngestReportSchema.parse(response.json().data)
    if (report.added.length + report.updated.length !== 1) throw new Error(report.message)

    const bare = await bareExtraction(bytes)
    if (bare.pages !== PAGES) throw new Error(`bare extraction read ${bare.pages} pages`)
    bareSeconds.push(bare.seconds)
  }
  const { rows } = (await app.db.execute('select count(*)::int as n from document_chunks')) as unknown as {
    rows: { n: number }[]
  }
  chunks = rows[0]?.n ?? 0

  const ingestRate = PAGES / median(ingestSeconds)
  const bareRate = PAGES / median(bareSeconds)
  console.log(
    `\nnode ${process.version}; ${PAGES}-page PDF, ${(bytes.length / 1024).toFixed(0)} KiB, ${chunks} chunks`,
  )
  console.log(`${RUNS} runs each, medians; PGlite in ${dir}\n`)
  console.log('| pipeline | seconds | pages/s | ratio |')
  console.log('|---|---:|---:|---:|')
  console.log(
    `| bare unpdf extractText, main thread (baseline) | ${median(bareSeconds).toFixed(2)} | ${bareRate.toFixed(0)} | 1.00 |`,
  )
  console.log(
    `| POST ingest-documents: list, download, extract in worker, chunk, index | ${median(ingestSeconds).toFixed(2)} | ${ingestRate.toFixed(0)} | ${(ingestRate / bareRate).toFixed(2)} |`,
  )
  console.log(`\ntarget >= 0.5x: ${ingestRate / bareRate >= 0.5 ? 'met' : 'NOT met'}`)
} finally {
  await app.close()
  await emulator.close()
  rmSync(dir, { recursive: true, force: true })
}
