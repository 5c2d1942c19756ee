/**
 * One process per PGlite data directory: PGlite has no cross-process locking of its own, and two
 * writers on one directory silently lose data. proper-lockfile keeps a lock directory fresh while
 * we run; a lock left by a killed process goes stale and is taken over after LOCK_STALE_MS.
 */
import { join } from 'node:path'
import lockfile from 'proper-lockfile'

const LOCK_STALE_MS = 15_000

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another DocChat server is already using the data directory ${dataDir} (PGlite allows one process per directory). Stop it or set DATA_DIR.`,
    )
    this.name = 'DataDirLockedError'
  }
}

/** Resolves to the release function; rejects with DataDirLockedError when the lock is held. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, 'server.lock'),
      stale: LOCK_STALE_MS,
      // A compromised lock (its directory removed, or a stall longer than `stale`) must not crash
      // a running server; the next start takes the lock over as usual.
      onCompromised: (error) => console.error(`Data directory lock compromised: ${error.message}`),
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir)
    throw error
  }
}
