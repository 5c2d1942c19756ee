/**
 * Drive sync at 500 files (issues 11 and 22): a Drive of 200 two-page PDFs, 150 Google Docs and
 * 150 text files in the Google emulator (in the same process), synced from scratch through the
 * real ingest call (list, one job per file: download or export, extract, chunk, index), against
 * bare text extraction of the same bytes (unpdf on the main thread, TextDecoder) measured in the
 * same run, before and after the sync (their mean is the baseline); then 10 edits, 5 deletions
 * and 5 additions, and the next sync's time and Drive calls. Besides wall-clock time it prints
 * the CPU time each side used (this process, and the document reader processes), which a loaded
 * machine changes far less than wall-clock time.
 * Usage: node bench/drive-sync.ts [files, 80 or more] [--latency=MS] [--other]
 *   --latency=MS   the emulator answers every call after MS milliseconds (150: real Google's)
 *   --other        another person (no Drive) lists their conversations and their documents in
 *     turn, 40 times on the idle server and then throughout the first sync, 50 ms apart (someone
 *     clicking, not a loop: PGlite's writer gives way while a request is answered, D94): their p50
 *     and p95 both ways
 *   BENCH_DATABASE_URL=postgres://…   a fresh database on that PostgreSQL server instead of PGlite
 *   BENCH_CPU_PROFILE=file.cpuprofile   this process's CPU profile of the first sync alone (open it
 *     in Chrome's DevTools), without the Drive's making or the baseline
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { performance } from 'node:perf_hooks'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { extractText, getDocumentProxy } from 'unpdf'
import { chatEndpoints } from '../contracts/chat.ts'
import { documentEndpoints } from '../contracts/documents.ts'
import { driveEndpoints, IngestReportSchema } from '../contracts/drive.ts'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { createGoogleEmulator } from '../tests/fakes/google/emulator.ts'
import { ADA, MIME } from '../tests/fakes/google/fixtures.ts'
import { DRIVE_ENDPOINTS } from '../tests/fakes/google/store.ts'
import { benchDatabase, ownCpuSeconds, postgresCpuSeconds, readerCpuSeconds } from './bench-database.ts'
import { percentile, seededRandom } from './corpus.ts'
import { connectedBenchUser, signedInBenchUser } from './drive-user.ts'

const args = process.argv.slice(2)
const FILES = Number(args.find((a) => /^\d+$/.test(a)) ?? 500)
// The edits before the second sync touch files 0, 7, … 63, and the deletions the last 13.
if (FILES < 80) throw new Error('bench/drive-sync.ts needs at least 80 files')
const LATENCY_MS = Number(args.find((a) => a.startsWith('--latency='))?.slice('--latency='.length) ?? 0)
const OTHER = args.includes('--other')
const PUBLIC_URL = 'http://127.0.0.1:3000'

const { pick } = seededRandom(0x9e3779b9)
const WORDS = (
  'the of and to in for on with project budget review launch balloon sensor wind humidity coastal ' +
  'town report schedule team pier hangar survey contract supplier invoice approval deadline quarter'
).split(' ')
const sentence = () => `${Array.from({ length: 14 }, () => pick(WORDS)).join(' ')}.`
const prose = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ')

async function pdf(title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let p = 0; p < 2; p++) {
    const page = doc.addPage([595, 842])
    page.drawText(title, { x: 50, y: 790, size: 14, font })
    for (let i = 0; i < 30; i++) page.drawText(sentence(), { x: 50, y: 760 - i * 20, size: 9, font })
  }
  return doc.save()
}

type Kind = 'pdf' | 'doc' | 'text'
const kinds: Kind[] = Array.from({ length: FILES }, (_, i) =>
  i < FILES * 0.4 ? 'pdf' : i < FILES * 0.7 ? 'doc' : 'text',
)
const contents = await Promise.all(
  kinds.map(async (kind, i) =>
    kind === 'pdf' ? await pdf(`Report ${i}`) : new TextEncoder().encode(`# Note ${i}\n\n${prose(40)}\n`),
  ),
)

async function bareExtraction(): Promise<{ seconds: number; cpu: number }> {
  const started = performance.now()
  const cpu = ownCpuSeconds()
  for (let i = 0; i < FILES; i++) {
    const bytes = contents[i] as Uint8Array
    if (kinds[i] === 'pdf') {
      const doc = await getDocumentProxy(bytes.slice())
      await extractText(doc, { mergePages: false })
      await doc.cleanup()
    } else {
      new TextDecoder().decode(bytes)
    }
  }
  return { seconds: (performance.now() - started) / 1000, cpu: ownCpuSeconds() - cpu }
}

const emulator = await createGoogleEmulator({ fixtures: false, maxPageSize: 1000 })
const database = await benchDatabase('sync')
const app = await buildApp(
  loadConfig({
    ...database.env,
    APP_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    PUBLIC_URL,
    GOOGLE_EMULATOR_URL: emulator.url,
    GOOGLE_CLIENT_ID: emulator.clientId,
    GOOGLE_CLIENT_SECRET: emulator.clientSecret,
    DRIVE_SYNC_INTERVAL: '0',
  }),
  { logger: false, ingestWaitMs: 30 * 60_000 },
)
try {
  const ids = kinds.map((kind, i) => {
    const name = kind === 'pdf' ? `report-${i}.pdf` : kind === 'doc' ? `Note ${i}` : `note-${i}.txt`
    const text = new TextDecoder().decode(contents[i])
    return emulator.state.addFile({
      owner: ADA,
      name,
      ...(kind === 'pdf'
        ? { mimeType: MIME.pdf, content: contents[i] }
        : kind === 'doc'
          ? { mimeType: MIME.googleDoc, exports: { 'text/markdown': text, 'text/plain': text } }
          : { mimeType: MIME.text, content: contents[i] }),
    }).id
  })
  const { email, cookie } = await connectedBenchUser(app)

  /** The other person's calls, each timed, while `keepGoing` says so. */
  const otherCookie = OTHER ? await signedInBenchUser(app, 'other@example.com') : ''
  async function otherCalls(keepGoing: (round: number) => boolean): Promise<number[]> {
    const times: number[] = []
    for (let round = 0; keepGoing(round); round++) {
      for (const url of [chatEndpoints.listConversations.path, documentEndpoints.listDocuments.path]) {
        const started = performance.now()
        const response = await app.inject({ method: 'GET', url, headers: { cookie: otherCookie } })
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`)
        times.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    return times.sort((a, b) => a - b)
  }

  const sync = async () => {
    emulator.state.clearRequests()
    const cpu = ownCpuSeconds()
    const readers = readerCpuSeconds()
    const postgres = postgresCpuSeconds()
    const started = performance.now()
    const response = await app.inject({
      method: 'POST',
      url: driveEndpoints.ingestDocuments.path,
      headers: { cookie },
      payload: { email },
    })
    const seconds = (performance.now() - started) / 1000
    const report = IngestReportSchema.parse(response.json().data)
    const calls = Object.fromEntries(DRIVE_ENDPOINTS.map((e) => [e, emulator.state.requestCount(e)]))
    return {
      seconds,
      report,
      calls,
      cpu: ownCpuSeconds() - cpu,
      readerCpu: readerCpuSeconds() - readers,
      postgresCpu: postgresCpuSeconds() - postgres,
    }
  }

  const bareBefore = await bareExtraction()
  emulator.state.setLatency(LATENCY_MS)
  const idleOther = OTHER ? await otherCalls((round) => round < 40) : []
  const profile = process.env.BENCH_CPU_PROFILE ? new Session() : null
  if (profile) {
    profile.connect()
    await profile.post('Profiler.enable')
    await profile.post('Profiler.setSamplingInterval', { interval: 200 })
    await profile.post('Profiler.start')
  }
  let syncing = true
  const busyOther = OTHER ? otherCalls(() => syncing) : Promise.resolve([])
  const first = await sync()
  if (profile) {
    const { profile: taken } = await profile.post('Profiler.stop')
    writeFileSync(process.env.BENCH_CPU_PROFILE as string, JSON.stringify(taken))
    profile.disconnect()
  }
  syncing = false
  const loadedOther = await busyOther
  emulator.state.setLatency(0)
  if (first.report.added.length !== FILES) throw new Error(first.report.message)
  const bareAfter = await bareExtraction()
  const bare = (bareBefore.seconds + bareAfter.seconds) / 2
  const bareCpu = (bareBefore.cpu + bareAfter.cpu) / 2

  for (let i = 0; i < 10; i++) {
    const at = i * 7
    const kind = kinds[at]
    if (kind === 'doc') {
      const text = `# Edited ${at}\n\n${prose(40)}\n`
      emulator.state.updateFile(ids[at] as string, { exports: { 'text/markdown': text, 'text/plain': text } })
    } else {
      emulator.state.updateFile(ids[at] as string, {
        content: kind === 'pdf' ? await pdf(`Edited ${at}`) : `Edited ${at}\n${prose(40)}`,
      })
    }
  }
  for (let i = 0; i < 5; i++) emulator.state.removeFile(ids[FILES - 1 - i * 3] as string)
  for (let i = 0; i < 5; i++) {
    emulator.state.addFile({ owner: ADA, name: `added-${i}.txt`, mimeType: MIME.text, content: prose(30) })
  }
  const second = await sync()
  const r = second.report
  const library = documentEndpoints.listDocuments.response.parse(
    (
      await app.inject({ method: 'GET', url: documentEndpoints.listDocuments.path, headers: { cookie } })
    ).json(),
  ).data

  const syncRate = FILES / first.seconds
  const bareRate = FILES / bare
  const files = `${FILES} files (${kinds.filter((k) => k === 'pdf').length} two-page PDFs, ${kinds.filter((k) => k === 'doc').length} Google Docs, ${kinds.filter((k) => k === 'text').length} text)`
  console.log(
    `\nnode ${process.version}; ${files}; ${database.label}; Google answering after ${LATENCY_MS} ms\n`,
  )
  const server = process.env.BENCH_DATABASE_URL ? ' + PostgreSQL' : ''
  console.log(`| first sync | seconds | files/s | ratio | CPU s: this process + readers${server} |`)
  console.log('|---|---:|---:|---:|---:|')
  console.log(
    `| bare extraction of the same files (unpdf + TextDecoder, main thread; baseline: ${bareBefore.seconds.toFixed(2)} s before the sync, ${bareAfter.seconds.toFixed(2)} s after) | ${bare.toFixed(2)} | ${bareRate.toFixed(1)} | 1.00 | ${bareCpu.toFixed(2)} |`,
  )
  console.log(
    `| POST ingest-documents: list, queue, jobs download/export, extract, chunk, index | ${first.seconds.toFixed(2)} | ${syncRate.toFixed(1)} | ${(syncRate / bareRate).toFixed(2)} | ${first.cpu.toFixed(2)} + ${first.readerCpu.toFixed(2)}${server ? ` + ${first.postgresCpu.toFixed(2)}` : ''} |`,
  )
  if (OTHER) {
    const figures = (times: number[]) =>
      `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${times.length} calls)`
    console.log(`\nthe other person's listings, idle: ${figures(idleOther)}`)
    console.log(`the other person's listings, during the first sync: ${figures(loadedOther)}`)
    console.log(`  p95 ratio: ${(percentile(loadedOther, 95) / percentile(idleOther, 95)).toFixed(2)}`)
  }
  console.log(`\nfirst sync Drive calls: ${JSON.stringify(first.calls)}`)
  console.log(
    `\nafter 10 edits, 5 deletions, 5 additions: next sync ${second.seconds.toFixed(2)} s (${((second.seconds / first.seconds) * 100).toFixed(1)} % of the first)`,
  )
  console.log(
    `  report: ${r.added.length} new, ${r.updated.length} updated, ${r.unchanged.length} unchanged, ${r.removed.length} removed`,
  )
  console.log(`  Drive calls: ${JSON.stringify(second.calls)}`)
  console.log(
    `  library: ${library.progress.total} files, ${library.documents.filter((d) => d.status === 'ready').length} ready, ${library.documents.reduce((n, d) => n + (d.chunks ?? 0), 0)} passages`,
  )
} finally {
  await app.close()
  await emulator.close()
  await database.drop()
}
