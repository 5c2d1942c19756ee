/**
 * One process per PGlite data directory: PGlite has no cross-process locking of its own, and two
 * writers on one directory silently lose data (D33).
 *
 * The lock is a file naming its holder (pid and, on Linux, the process's start time), created
 * with O_EXCL. A lock whose holder is no longer running is taken over at once, so a supervisor's
 * restart after kill -9 starts without waiting; a live holder refuses the second server. The
 * start time tells a recycled pid (common in containers, where the server is often pid 1 every
 * time) from the process that wrote the lock.
 */
import { randomUUID } from 'node:crypto'
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LOCK_FILE = 'server.lock'
const TAKE_OVER_ATTEMPTS = 5

/** Directories this process holds: a second app in the same process is refused too. */
const heldHere = new Set<string>()

type Holder = { pid: number; startTime: string | null; id: string }

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another DocChat server is already using the data directory ${dataDir} (PGlite allows one process per directory). Stop it or set DATA_DIR.`,
    )
    this.name = 'DataDirLockedError'
  }
}

/** Resolves to the release function; rejects with DataDirLockedError when a live server holds it. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE)
  if (heldHere.has(file)) throw new DataDirLockedError(dataDir)
  const me: Holder = { pid: process.pid, startTime: startTimeOf(process.pid), id: randomUUID() }
  for (let attempt = 0; attempt < TAKE_OVER_ATTEMPTS; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o600 })
      heldHere.add(file)
      return async () => release(file, me)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readHolder(file)
    if (holder && isRunning(holder)) throw new DataDirLockedError(dataDir)
    // Dead holder: move its file aside (atomic, so of two servers starting at once only one
    // removes it) and try again.
    const aside = `${file}.stale-${me.id}`
    try {
      renameSync(file, aside)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      continue
    }
    const moved = readHolder(aside)
    if (moved !== null && moved.id !== holder?.id) {
      // Another server took the dead lock over between our read and our move: put its lock back.
      try {
        linkSync(aside, file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      rmSync(aside, { force: true })
      throw new DataDirLockedError(dataDir)
    }
    rmSync(aside, { force: true, recursive: true })
  }
  throw new DataDirLockedError(dataDir)
}

function release(file: string, me: Holder): void {
  heldHere.delete(file)
  // Only our own lock: never one another server took over after ours was judged dead.
  if (readHolder(file)?.id !== me.id) return
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/** Null for a missing, empty or half-written file (a holder killed while writing it). */
function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>
    if (typeof parsed.pid !== 'number' || typeof parsed.id !== 'string') return null
    return { pid: parsed.pid, startTime: parsed.startTime ?? null, id: parsed.id }
  } catch {
    return null
  }
}

function isRunning(holder: Holder): boolean {
  if (holder.pid === process.pid) {
    // Our pid but not a lock this process holds: a previous life of a recycled pid.
    return false
  }
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: running, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const now = startTimeOf(holder.pid)
  return holder.startTime === null || now === null || now === holder.startTime
}

/** Linux: the process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null
  } catch {
    return null
  }
}
