/**
 * Reads the files that need a parser in a child process with a time limit and a memory ceiling
 * per file, into the sections the chunker reads: a PDF as one section per page with headings
 * where its outline says a section starts (pages without text read by OCR), a Word file as its
 * paragraphs with its heading styles, a spreadsheet as a section per tab, a presentation as a
 * section per slide, a web page with its headings, an image by OCR. A file that is broken,
 * encrypted, too slow, too large in memory or without text fails alone (a FileReadError with a
 * reason a person can read); the process is replaced after a time-out or a crash, so the next
 * file starts clean and the server never stalls on one (one process and its file: reader-slot.ts).
 * Files are read in turns across people, one file per person at a time, in up to
 * READER_PROCESSES processes (D92): one person's slow files never keep another person's small one
 * waiting behind them.
 */
import type { Section } from './chunker.ts'
import { MAX_DOCUMENT_CHARS } from './document-bounds.ts'
import type { OcrOptions } from './ocr.ts'
import type { ReadDocument } from './read-document.ts'
import type { ReaderKind, ReaderWarmUp } from './reader-process.ts'
import { ensureChild, readIn, type Slot, type SlotSettings, stopChild } from './reader-slot.ts'

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

type Request = {
  kind: ReaderKind
  bytes: Uint8Array
  owner: string
  resolve: (read: ReadDocument) => void
  reject: (error: unknown) => void
}

/** One reader process and the file it reads now, if any. */
type ReaderSlot = Slot & {
  reading: Request | null
  idle: NodeJS.Timeout | null
}

/** One reader's processes and the files waiting for them, shared by the functions below. */
type Turns = {
  settings: SlotSettings
  slots: ReaderSlot[]
  /** Files waiting, per person, oldest first; the map's order is the round-robin's. */
  waiting: Map<string, Request[]>
  /** People with a file being read. */
  reading: Set<string>
  /** When each person with files waiting or being read was last served: the longest unserved goes next. */
  lastTurn: Map<string, number>
  turn: number
}

export function createDocumentReader({
  timeLimitMs = READ_TIME_LIMIT_MS,
  memoryLimitMb = READ_MEMORY_LIMIT_MB,
  ocr = null,
  processes = READER_PROCESSES,
  maxChars = MAX_DOCUMENT_CHARS,
  onStop,
}: DocumentReaderOptions = {}): DocumentReader {
  const turns: Turns = {
    settings: { timeLimitMs, memoryLimitMb, ocr, maxChars, onStop, nodeFlags: null, nextId: 1 },
    slots: Array.from({ length: Math.max(1, processes) }, () => ({
      child: null,
      stderr: '',
      reading: null,
      idle: null,
    })),
    waiting: new Map(),
    reading: new Set(),
    lastTurn: new Map(),
    turn: 0,
  }
  const read = (kind: ReaderKind, bytes: Uint8Array, options?: ReadOptions) =>
    enqueue(turns, kind, bytes, options)
  return {
    ocr: ocr !== null,
    read,
    pdf: async (bytes, options) => (await read('pdf', bytes, options)).sections,
    docx: async (bytes, options) => (await read('docx', bytes, options)).sections,
    warm() {
      const slot = turns.slots[0] as ReaderSlot
      if (slot.child) return
      ensureChild(turns.settings, slot).send({ warm: true } satisfies ReaderWarmUp, () => undefined)
    },
    async close() {
      for (const slot of turns.slots) if (slot.idle) clearTimeout(slot.idle)
      await Promise.all(turns.slots.map(stopChild))
    },
  }
}

/** A file joins its owner's queue; it is read when a process is free and the owner's turn comes. */
function enqueue(
  turns: Turns,
  kind: ReaderKind,
  bytes: Uint8Array,
  { owner = '' }: ReadOptions = {},
): Promise<ReadDocument> {
  return new Promise((resolve, reject) => {
    const queue = turns.waiting.get(owner)
    const request = { kind, bytes, owner, resolve, reject }
    if (queue) queue.push(request)
    else turns.waiting.set(owner, [request])
    pump(turns)
  })
}

/** Of the people with files waiting and none being read, the one served longest ago (or never). */
function nextOwner({ waiting, reading, lastTurn }: Turns): string | undefined {
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
function pump(turns: Turns): void {
  const { slots, waiting, reading, lastTurn } = turns
  for (const [index, slot] of slots.entries()) {
    if (slot.reading) continue
    const owner = nextOwner(turns)
    if (owner === undefined) return
    const queue = waiting.get(owner) as Request[]
    const request = queue.shift() as Request
    if (queue.length === 0) waiting.delete(owner)
    reading.add(owner)
    lastTurn.set(owner, ++turns.turn)
    slot.reading = request
    if (slot.idle) clearTimeout(slot.idle)
    slot.idle = null
    readIn(turns.settings, slot, request.kind, request.bytes)
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
        pump(turns)
      })
  }
}
