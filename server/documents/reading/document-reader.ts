/**
 * Reads the files that need a parser in a child process with a time limit and a memory ceiling
 * per file, into the sections the chunker reads: a PDF as one section per page with headings
 * where its outline says a section starts (pages without text read by OCR), a Word file as its
 * paragraphs with its heading styles, a spreadsheet as a section per tab, a presentation as a
 * section per slide, a web page with its headings, an image by OCR. A file that is broken,
 * encrypted, too slow, too large in memory or without text fails alone (a FileReadError with a
 * reason a person can read); the process is replaced after a time-out or a crash, so the next
 * file starts clean and the server never stalls on one.
 * Files are read in turns across people, one file per person at a time, in up to
 * READER_PROCESSES processes (D92): one person's slow files never keep another person's small one
 * waiting behind them.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Paragraph, paragraphsOf, type Section } from './chunker.ts'
import { joinParagraphs, MAX_DOCUMENT_CHARS } from './document-bounds.ts'
import { DocxTextError } from './docx-text.ts'
import type { OcrOptions } from './ocr.ts'
import { FileReadError } from './read-error.ts'
import type {
  PdfOutlineEntry,
  ReaderJob,
  ReaderKind,
  ReaderProgress,
  ReaderResult,
  ReaderWarmUp,
  SentSection,
} from './reader-process.ts'
import { removeControlCharacters } from './text-decoding.ts'

/**
 * Processing time one file may take: a 10 MB PDF of text reads in a few seconds, and reading stops
 * at a document's text ceiling anyway; a file that takes longer fails alone.
 */
export const READ_TIME_LIMIT_MS = 10_000
/** Reader processes at most: two people's files are read side by side, each person's one at a time. */
export const READER_PROCESSES = 2
/**
 * The reader process's heap ceiling: a Word file is a ZIP, and a small one can expand to gigabytes
 * of XML; past this the reader process alone fails ("too large to read"), never the server.
 */
export const READ_MEMORY_LIMIT_MB = 512

/**
 * How long the reader waits past a page's own OCR time limit (which the process enforces itself)
 * before it takes the process to be stuck (a page that cannot even be rendered) and ends it.
 */
const OCR_PAGE_GRACE_MS = 5_000

export class PdfTextError extends FileReadError {
  constructor(message: string) {
    super(message)
    this.name = 'PdfTextError'
  }
}

export type { ReaderKind }

/** A file as read: its sections, and what the library says of how it was read. */
export type ReadDocument = {
  sections: Section[]
  /** A PDF's pages; null for other kinds. */
  pages: number | null
  /** The pages OCR gave the text of (an image: [1]); null when OCR read none. */
  ocrPages: number[] | null
  /** What was left unread of a file otherwise read (a limit reached); null when nothing was. */
  note: string | null
}

export type DocumentReader = {
  /** Whether scanned pages and images are read (OCR on). */
  ocr: boolean
  read(kind: ReaderKind, bytes: Uint8Array, options?: ReadOptions): Promise<ReadDocument>
  /** One section per page, page 1 first, with the outline's headings. */
  pdf(bytes: Uint8Array, options?: ReadOptions): Promise<Section[]>
  /** The Word file's paragraphs as one section, its heading styles as headings. */
  docx(bytes: Uint8Array, options?: ReadOptions): Promise<Section[]>
  /**
   * Starts the first process, if none runs, and has it load its PDF reader: called when files are
   * about to be queued (a sync's listing), so the first file does not wait for either (~0.2 s).
   */
  warm(): void
  close(): Promise<void>
}

/** The outline title as it may be printed: its words in order, any spacing or line breaks between. */
function titlePattern(title: string): RegExp {
  const words = title.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(words.join('\\s+'), 'iu')
}

/**
 * The sections of a PDF's pages, with headings from its outline. An outline entry's section
 * starts where its title is printed on the page it opens (searched after the previous entry's
 * start on that page), or at the top of that page (or the previous entry's start) when the title
 * is not printed as such; the text before the first entry of a page still belongs to the section
 * above, which runs on across pages until the next entry (except above the document's first
entry: that text, a title or a date, opens the first section). A PDF without an outline has no
 * headings, as before: its passages cite their pages. Control characters (a text layer may hold
 * NULs, which PostgreSQL refuses in text) are removed.
 */
export function pdfSections(pages: readonly string[], outline: readonly PdfOutlineEntry[]): Section[] {
  const firstPage = Math.min(...outline.map((e) => e.page))
  return pages.map((raw, i) => {
    const text = removeControlCharacters(raw)
    const page = i + 1
    const entries = outline.filter((e) => e.page === page)
    if (entries.length === 0) return { text, page }
    const starts: { at: number; heading: string }[] = []
    let cursor = 0
    for (const { title } of entries) {
      const found = titlePattern(title).exec(text.slice(cursor))
      // What is printed above the document's first section on its page (the document's own
      // title, a date) belongs to that section, not to a passage of a few words of its own.
      if (found && !(page === firstPage && starts.length === 0)) cursor += found.index
      starts.push({ at: cursor, heading: title })
    }
    const paragraphs: Paragraph[] = paragraphsOf(text.slice(0, starts[0]?.at ?? 0), false)
    starts.forEach(({ at, heading }, j) => {
      const [first, ...rest] = paragraphsOf(text.slice(at, starts[j + 1]?.at ?? text.length), false)
      // The section's first paragraph carries its heading (empty when the next entry starts at
      // once), so the chunker starts a passage there and the passages below remember it.
      paragraphs.push({ text: first?.text ?? '', heading }, ...rest)
    })
    return { text, page, paragraphs }
  })
}

const generic = (message: string) => new FileReadError(message)
const KINDS: Record<ReaderKind, { name: string; error: (message: string) => FileReadError }> = {
  pdf: { name: 'the PDF', error: (message) => new PdfTextError(message) },
  docx: { name: 'the Word document', error: (message) => new DocxTextError(message) },
  workbook: { name: 'the spreadsheet', error: generic },
  csv: { name: 'the spreadsheet', error: generic },
  pptx: { name: 'the presentation', error: generic },
  html: { name: 'the web page', error: generic },
  image: { name: 'the image', error: generic },
}

/** A section as the reader sent it, with the text its paragraphs join into (D102). */
const received = (section: SentSection): Section =>
  section.paragraphs ? { ...section, text: joinParagraphs(section.paragraphs) } : section

function documentOf(result: ReaderResult & { ok: true }, ocr: boolean): ReadDocument {
  const ocrPages = result.ocrPages.length > 0 ? result.ocrPages : null
  if (result.kind === 'sections')
    return { sections: result.sections.map(received), pages: null, ocrPages, note: result.note }
  if (result.pages.every((page) => page.trim() === '')) {
    if (!ocr)
      throw new PdfTextError(
        'the PDF has no text to read (its pages are scanned images, and OCR is turned off on this server)',
      )
    throw new PdfTextError(
      result.note
        ? `the PDF's pages are scanned images, and ${result.note}`
        : 'no text was found in the PDF, not even by OCR',
    )
  }
  const sections = pdfSections(result.pages, result.outline)
  return { sections, pages: sections.length, ocrPages, note: result.note }
}

/**
 * What Node itself takes of the system's data limit (address space it reserves and writes to
 * before any file is read: ~580 MB measured on Node 24), beside the heap ceiling; what is left of
 * it is for the parsers' array buffers.
 */
const PROCESS_OVERHEAD_MB = 1024
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path))

const READER_SCRIPT = fileURLToPath(new URL('./reader-process.ts', import.meta.url))

/**
 * What the reader process may read: its own code (this folder), the packages it loads (the OCR
 * language data among them) and the package.json Node reads to load them; nothing else (Node's
 * permission model). The data directory, with the database files and the generated app secret,
 * is not among them, nor any other file, and the process may write nowhere and start no process.
 */
function readableByReader(): string[] {
  const require = createRequire(import.meta.url)
  const marker = `${path.sep}node_modules${path.sep}`
  const packagesOf = (name: string) => {
    const file = require.resolve(name)
    return file.slice(0, file.lastIndexOf(marker) + marker.length)
  }
  const code = path.dirname(READER_SCRIPT)
  const root = path.resolve(code, '..', '..', '..')
  return [
    `${code}${path.sep}`,
    ...new Set([
      packagesOf('unpdf'),
      packagesOf('mammoth'),
      packagesOf('@tesseract.js-data/eng'),
      // The same packages as Node's loader names them from our code, when node_modules is a
      // link to them (a git worktree sharing one install, pnpm): it checks that path, not theirs.
      `${path.join(root, 'node_modules')}${path.sep}`,
    ]),
    path.join(root, 'package.json'),
  ]
}

/**
 * Node's flags for the reader process: its heap ceiling, and what it may read (only that). With
 * OCR on it may also start threads (tesseract.js runs Tesseract in one worker thread of the
 * process, under the same permissions): nothing more, not even then a native addon (D103: a
 * scanned page's picture is decoded by pdf.js's JavaScript, not drawn on a canvas).
 */
export function readerNodeFlags(memoryLimitMb: number, options: { ocr: boolean } = { ocr: false }): string[] {
  const heap = `--max-old-space-size=${memoryLimitMb}`
  // Node 24 has the permission model; a Node without it (before 22.13) reads unconfined.
  if (!process.allowedNodeEnvironmentFlags.has('--permission')) return [heap]
  return [
    heap,
    '--permission',
    ...readableByReader().map((allowed) => `--allow-fs-read=${allowed}`),
    ...(options.ocr ? ['--allow-worker'] : []),
  ]
}

/** What the reader process printed last (a fatal error's reason), kept short. */
const STDERR_TAIL = 4096

export type DocumentReaderOptions = {
  /**
   * Processing time one file may take (the reader process's CPU time, where /proc tells it;
   * elsewhere wall-clock time).
   */
  timeLimitMs?: number
  /** OCR's languages and limits; null or absent: OCR is off (scanned pages and images unread). */
  ocr?: OcrOptions | null
  memoryLimitMb?: number
  /** Reader processes at most: files of different people are read side by side. */
  processes?: number
  /** The most text one document gives (document-bounds.ts); reading a PDF stops past it. */
  maxChars?: number
  /**
   * Told when the reader process ends while reading a file, with what it printed last (V8's
   * reason, a stack): for the operator's log, never for the person, whose file fails with a
   * sentence.
   */
  onStop?: (detail: { exit: string; stderr: string }) => void
}

/** Whose file it is: files are read in turns across people, one file per person at a time. */
export type ReadOptions = { owner?: string }

/** A reader process beside the first one stops after this long without a file. */
const SPARE_IDLE_MS = 60_000
/** Wall-clock time a file may take, as a multiple of its processing time (a starved process). */
const WALL_FACTOR = 3

/** The clock ticks per second /proc counts CPU time in (Linux's USER_HZ: 100 on every common build). */
const CLOCK_TICKS = 100

/** A process's CPU time so far (user + system), from /proc; null where there is none. */
function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return null
  }
}

type Request = {
  kind: ReaderKind
  bytes: Uint8Array
  owner: string
  resolve: (read: ReadDocument) => void
  reject: (error: unknown) => void
}

/** One reader process (started on demand) and the file it reads. */
type Slot = {
  child: ChildProcess | null
  stderr: string
  reading: Request | null
  idle: NodeJS.Timeout | null
}

export function createDocumentReader({
  timeLimitMs = READ_TIME_LIMIT_MS,
  memoryLimitMb = READ_MEMORY_LIMIT_MB,
  ocr = null,
  processes = READER_PROCESSES,
  maxChars = MAX_DOCUMENT_CHARS,
  onStop,
}: DocumentReaderOptions = {}): DocumentReader {
  // Node's flags, worked out (packages resolved) once, when the first process starts.
  let nodeFlags: string[] | null = null
  let nextId = 1
  const slots: Slot[] = Array.from({ length: Math.max(1, processes) }, () => ({
    child: null,
    stderr: '',
    reading: null,
    idle: null,
  }))
  /** Files waiting, per person, oldest first; the map's order is the round-robin's. */
  const waiting = new Map<string, Request[]>()
  /** People with a file being read. */
  const reading = new Set<string>()
  /** When each person with files waiting or being read was last served: the longest unserved goes next. */
  const lastTurn = new Map<string, number>()
  let turn = 0

  function ensureChild(slot: Slot): ChildProcess {
    if (slot.child) return slot.child
    slot.stderr = ''
    // A process, not a worker thread: V8 can end a whole process when a worker thread reaches its
    // heap ceiling (`resourceLimits`); a child's own ceiling ends only the child.
    nodeFlags ??= readerNodeFlags(memoryLimitMb, { ocr: ocr !== null })
    const c = fork(READER_SCRIPT, [], {
      // Where the system has prlimit, it starts Node with a ceiling on all its memory (V8's heap
      // flag leaves out array buffers, in which a ZIP or PDF bomb inflates: a 3.7 MB .docx was
      // measured at 4.6 GB without it); past that an allocation fails and so does the file.
      ...(PRLIMIT
        ? {
            execPath: PRLIMIT,
            execArgv: [
              `--data=${(memoryLimitMb + PROCESS_OVERHEAD_MB) * 1024 * 1024}`,
              process.execPath,
              ...nodeFlags,
            ],
          }
        : { execArgv: nodeFlags }),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // None of the server's environment (database address, API keys, the session secret): a
      // parser bug exploited by a crafted file finds nothing there to read.
      env: {},
    })
    c.stderr?.setEncoding('utf8')
    c.stderr?.on('data', (text: string) => {
      slot.stderr = (slot.stderr + text).slice(-STDERR_TAIL)
    })
    c.on('exit', () => {
      if (slot.child === c) slot.child = null
    })
    // An error with no file being read (the process could not start) shows on the next file.
    c.on('error', () => undefined)
    // The reader never keeps the server (or a test run) alive on its own.
    c.unref()
    c.channel?.unref()
    ;(c.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.()
    slot.child = c
    return c
  }

  async function stopChild(slot: Slot): Promise<void> {
    const c = slot.child
    slot.child = null
    if (!c || c.exitCode !== null || c.signalCode !== null) return
    const exited = new Promise((resolve) => c.once('exit', resolve))
    c.ref() // until it is gone, so that closing waits for it
    c.kill('SIGKILL')
    await exited
  }

  function run(slot: Slot, kind: ReaderKind, bytes: Uint8Array): Promise<ReadDocument> {
    const c = ensureChild(slot)
    const id = nextId++
    const { name, error: failure } = KINDS[kind]
    return new Promise<ReadDocument>((resolve, reject) => {
      const tooLong = (limitMs: number) => () => {
        cleanup()
        void stopChild(slot)
        reject(failure(`reading ${name} took longer than ${Math.round(limitMs / 1000)} s`))
      }
      // Processing time where /proc tells it (a loaded machine does not fail a file that a quiet
      // one reads), with a wall-clock ceiling for a process that is starved or stuck.
      const startCpu = cpuTimeMs(c.pid)
      let wall = setTimeout(tooLong(timeLimitMs), startCpu === null ? timeLimitMs : timeLimitMs * WALL_FACTOR)
      let cpu =
        startCpu === null
          ? null
          : setInterval(
              () => {
                const now = cpuTimeMs(c.pid)
                if (now !== null && now - startCpu > timeLimitMs) tooLong(timeLimitMs)()
              },
              Math.min(250, Math.max(10, timeLimitMs / 4)),
            )
      // While a file is being read, the process keeps the caller waiting for it.
      c.channel?.ref()
      const onMessage = (message: ReaderResult | ReaderProgress) => {
        if (message.id !== id) return
        if ('progress' in message) {
          // A page begins OCR: it has its own limit (the process stops it), plus a grace for a
          // process too stuck to stop it; a file of many scanned pages is bounded by their number.
          clearTimeout(wall)
          if (cpu) clearInterval(cpu)
          cpu = null
          const pageMs = (ocr?.pageTimeMs ?? 0) + OCR_PAGE_GRACE_MS
          wall = setTimeout(tooLong(pageMs), pageMs)
          return
        }
        cleanup()
        if (!message.ok) reject(failure(message.error))
        else {
          try {
            resolve(documentOf(message, ocr !== null))
          } catch (error) {
            reject(error)
          }
        }
      }
      // 'close', not 'exit': by then the process's last words on stderr have been read.
      // ('exit', before it, has already let go of the process.)
      const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup()
        const exit = signal ?? `exit code ${code}`
        onStop?.({ exit, stderr: slot.stderr })
        reject(
          failure(
            /out of memory|heap limit|bad_alloc/i.test(slot.stderr)
              ? `${name} is too large to read`
              : `the reader stopped while reading ${name} (${exit})`,
          ),
        )
      }
      function cleanup() {
        clearTimeout(wall)
        if (cpu) clearInterval(cpu)
        c.off('message', onMessage)
        c.off('close', onClose)
        c.off('error', onError)
        c.channel?.unref()
      }
      // The process could not be started or reached (no memory for it, its channel gone).
      const onError = (error: Error) => {
        cleanup()
        if (slot.child === c) slot.child = null
        c.kill('SIGKILL')
        reject(failure(`the reader failed on ${name}: ${error.message}`))
      }
      c.on('message', onMessage)
      c.on('close', onClose)
      c.on('error', onError)
      c.send({ id, kind, bytes, ocr, maxChars } satisfies ReaderJob, (error) => {
        if (error) onError(error)
      })
    })
  }

  /** Of the people with files waiting and none being read, the one served longest ago (or never). */
  function nextOwner(): string | undefined {
    let next: string | undefined
    for (const owner of waiting.keys()) {
      if (reading.has(owner)) continue
      if (next === undefined || (lastTurn.get(owner) ?? -1) < (lastTurn.get(next) ?? -1)) next = owner
    }
    return next
  }

  /**
   * Gives each free process the oldest file of the person in turn (served longest ago) who has
   * none being read: a person's slow files never make another's wait behind them, and one
   * person's many files are read one after the other.
   */
  function pump(): void {
    for (const [index, slot] of slots.entries()) {
      if (slot.reading) continue
      const owner = nextOwner()
      if (owner === undefined) return
      const queue = waiting.get(owner) as Request[]
      const request = queue.shift() as Request
      if (queue.length === 0) waiting.delete(owner)
      reading.add(owner)
      lastTurn.set(owner, ++turn)
      slot.reading = request
      if (slot.idle) clearTimeout(slot.idle)
      slot.idle = null
      run(slot, request.kind, request.bytes)
        .then(request.resolve, request.reject)
        .finally(() => {
          slot.reading = null
          reading.delete(owner)
          if (!waiting.has(owner)) lastTurn.delete(owner)
          // Spare processes go once nobody needs them; the first stays for the next file.
          if (index > 0) {
            slot.idle = setTimeout(() => void stopChild(slot), SPARE_IDLE_MS)
            slot.idle.unref()
          }
          pump()
        })
    }
  }

  const read = (
    kind: ReaderKind,
    bytes: Uint8Array,
    { owner = '' }: ReadOptions = {},
  ): Promise<ReadDocument> =>
    new Promise((resolve, reject) => {
      const queue = waiting.get(owner)
      const request = { kind, bytes, owner, resolve, reject }
      if (queue) queue.push(request)
      else waiting.set(owner, [request])
      pump()
    })

  return {
    ocr: ocr !== null,
    read,
    pdf: async (bytes, options) => (await read('pdf', bytes, options)).sections,
    docx: async (bytes, options) => (await read('docx', bytes, options)).sections,
    warm() {
      const slot = slots[0] as Slot
      if (slot.child) return
      ensureChild(slot).send({ warm: true } satisfies ReaderWarmUp, () => undefined)
    },
    async close() {
      for (const slot of slots) if (slot.idle) clearTimeout(slot.idle)
      await Promise.all(slots.map(stopChild))
    },
  }
}
