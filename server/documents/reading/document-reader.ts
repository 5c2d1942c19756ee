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
import { readFileSync } from 'node:fs'
import type { Section } from './chunker.ts'
import { MAX_DOCUMENT_CHARS } from './document-bounds.ts'
import type { OcrOptions } from './ocr.ts'
import { documentOf, KINDS, type ReadDocument } from './read-document.ts'
import type { ReaderJob, ReaderKind, ReaderProgress, ReaderResult, ReaderWarmUp } from './reader-process.ts'
import { PRLIMIT, PROCESS_OVERHEAD_MB, READER_SCRIPT, readerNodeFlags } from './reader-process-flags.ts'

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

export type { ReadDocument } from './read-document.ts'
export type { ReaderKind }

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
