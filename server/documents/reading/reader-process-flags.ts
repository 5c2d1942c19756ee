/**
 * How the reader process is started: Node's flags (its heap, and what it may read under Node's
 * permission model) and the system's data limit around it (prlimit, where there is one).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What Node itself takes of the system's data limit (address space it reserves and writes to
 * before any file is read: ~580 MB measured on Node 24), beside the heap ceiling; what is left of
 * it is for the parsers' array buffers.
 */
export const PROCESS_OVERHEAD_MB = 1024
export const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path))

export const READER_SCRIPT = fileURLToPath(new URL('./reader-process.ts', import.meta.url))

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
