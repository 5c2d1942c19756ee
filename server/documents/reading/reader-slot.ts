/**
 * One reader process of the document reader (document-reader.ts), started on demand, and the one
 * file it reads at a time: the process's start (its memory ceiling, no environment), the file's
 * time limits, and the sentence a file fails with when the process ends under it. The reader
 * decides which file goes to which process, in turns across people.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { OcrOptions } from './ocr.ts'
import { documentOf, KINDS, type ReadDocument } from './read-document.ts'
import type { ReaderJob, ReaderKind, ReaderProgress, ReaderResult } from './reader-process.ts'
import { PRLIMIT, PROCESS_OVERHEAD_MB, READER_SCRIPT, readerNodeFlags } from './reader-process-flags.ts'

/**
 * How long the reader waits past a page's own OCR time limit (which the process enforces itself)
 * before it takes the process to be stuck (a page that cannot even be rendered) and ends it.
 */
const OCR_PAGE_GRACE_MS = 5_000

/** What the reader process printed last (a fatal error's reason), kept short. */
const STDERR_TAIL = 4096

/** Wall-clock time a file may take, as a multiple of its processing time (a starved process). */
const WALL_FACTOR = 3

/** The clock ticks per second /proc counts CPU time in (Linux's USER_HZ: 100 on every common build). */
const CLOCK_TICKS = 100

/** What every process of one reader shares: the limits, and what it keeps across files. */
export type SlotSettings = {
  timeLimitMs: number
  memoryLimitMb: number
  ocr: OcrOptions | null
  maxChars: number
  onStop: ((detail: { exit: string; stderr: string }) => void) | undefined
  /** Node's flags, worked out (packages resolved) once, when the first process starts. */
  nodeFlags: string[] | null
  /** The next file's id, so a process's answer is matched to the file it reads. */
  nextId: number
}

/** One reader process, started on demand, and what it printed last. */
export type Slot = {
  child: ChildProcess | null
  stderr: string
}

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

/** The slot's process, started if none runs. */
export function ensureChild(settings: SlotSettings, slot: Slot): ChildProcess {
  if (slot.child) return slot.child
  slot.stderr = ''
  // A process, not a worker thread: V8 can end a whole process when a worker thread reaches its
  // heap ceiling (`resourceLimits`); a child's own ceiling ends only the child.
  const { memoryLimitMb } = settings
  settings.nodeFlags ??= readerNodeFlags(memoryLimitMb, { ocr: settings.ocr !== null })
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
            ...settings.nodeFlags,
          ],
        }
      : { execArgv: settings.nodeFlags }),
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

export async function stopChild(slot: Slot): Promise<void> {
  const c = slot.child
  slot.child = null
  if (!c || c.exitCode !== null || c.signalCode !== null) return
  const exited = new Promise((resolve) => c.once('exit', resolve))
  c.ref() // until it is gone, so that closing waits for it
  c.kill('SIGKILL')
  await exited
}

/**
 * A file's time limit: processing time where /proc tells it (a loaded machine does not fail a file
 * that a quiet one reads), with a wall-clock ceiling for a process that is starved or stuck.
 * `tooLong` is told the limit that ran out.
 */
function startClock(c: ChildProcess, timeLimitMs: number, tooLong: (limitMs: number) => void) {
  const startCpu = cpuTimeMs(c.pid)
  let wall = setTimeout(
    () => tooLong(timeLimitMs),
    startCpu === null ? timeLimitMs : timeLimitMs * WALL_FACTOR,
  )
  let cpu =
    startCpu === null
      ? null
      : setInterval(
          () => {
            const now = cpuTimeMs(c.pid)
            if (now !== null && now - startCpu > timeLimitMs) tooLong(timeLimitMs)
          },
          Math.min(250, Math.max(10, timeLimitMs / 4)),
        )
  const stop = () => {
    clearTimeout(wall)
    if (cpu) clearInterval(cpu)
    cpu = null
  }
  return {
    stop,
    /** From now on only one page's limit counts: `pageMs` of wall-clock time. */
    limitTo(pageMs: number) {
      stop()
      wall = setTimeout(() => tooLong(pageMs), pageMs)
    },
  }
}

/** Why a file failed when its process ended under it: too large if V8 said so. */
function stoppedReason(stderr: string, name: string, exit: string): string {
  return /out of memory|heap limit|bad_alloc/i.test(stderr)
    ? `${name} is too large to read`
    : `the reader stopped while reading ${name} (${exit})`
}

/** Reads one file in the slot's process (started if none runs); a failure says why in a sentence. */
export function readIn(
  settings: SlotSettings,
  slot: Slot,
  kind: ReaderKind,
  bytes: Uint8Array,
): Promise<ReadDocument> {
  const c = ensureChild(settings, slot)
  const id = settings.nextId++
  const { timeLimitMs, ocr, maxChars, onStop } = settings
  const { name, error: failure } = KINDS[kind]
  return new Promise<ReadDocument>((resolve, reject) => {
    const clock = startClock(c, timeLimitMs, (limitMs) => {
      cleanup()
      void stopChild(slot)
      reject(failure(`reading ${name} took longer than ${Math.round(limitMs / 1000)} s`))
    })
    // While a file is being read, the process keeps the caller waiting for it.
    c.channel?.ref()
    const onMessage = (message: ReaderResult | ReaderProgress) => {
      if (message.id !== id) return
      if ('progress' in message) {
        // A page begins OCR: it has its own limit (the process stops it), plus a grace for a
        // process too stuck to stop it; a file of many scanned pages is bounded by their number.
        clock.limitTo((ocr?.pageTimeMs ?? 0) + OCR_PAGE_GRACE_MS)
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
      reject(failure(stoppedReason(slot.stderr, name, exit)))
    }
    function cleanup() {
      clock.stop()
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
