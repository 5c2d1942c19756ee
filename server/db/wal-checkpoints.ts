/**
 * Checkpoints for embedded PGlite (D96). PostgreSQL's checkpointer is a background process;
 * PGlite runs none, so nothing ever checkpoints while the server runs: the write-ahead log kept
 * every segment since the database opened (1.7 GB of log for 220 MB of passages after 80,000 of
 * them; 8 GB on the way to 2 million), and a crash would replay all of it at the next start. A
 * checkpoint lets PostgreSQL recycle the segments before it (a few tens of ms on a quiet
 * database). This takes one when the log has grown by `bytes` since the last, or, every
 * `idleTicks` ticks, when it has grown at all.
 */
import type { PGlite } from '@electric-sql/pglite'

export type WalCheckpoints = {
  /** Checks once now (tests); the timer calls the same. */
  tick: () => Promise<void>
  stop: () => void
}

export const WAL_CHECK_MS = 10_000
/** The log written between two checkpoints under steady writes (PostgreSQL's own default is 1 GB). */
export const WAL_CHECKPOINT_BYTES = 128 * 1024 * 1024
/** A checkpoint at least every 30 ticks (5 minutes) that wrote anything, as checkpoint_timeout does. */
export const WAL_IDLE_TICKS = 30

export function startWalCheckpoints(
  client: Pick<PGlite, 'query'>,
  { everyMs = WAL_CHECK_MS, bytes = WAL_CHECKPOINT_BYTES, idleTicks = WAL_IDLE_TICKS } = {},
): WalCheckpoints {
  let ticks = 0
  let running: Promise<void> | null = null
  const check = async () => {
    ticks++
    const { rows } = await client.query<{ written: string }>(
      `select (pg_current_wal_insert_lsn() - redo_lsn)::text as written from pg_control_checkpoint()`,
    )
    const written = Number(rows[0]?.written ?? 0)
    if (written >= bytes || (written > 0 && ticks >= idleTicks)) {
      await client.query('checkpoint')
      ticks = 0
    }
  }
  const tick = () => {
    // One check at a time; a failed one (the database closing) is tried again at the next tick.
    running ??= check()
      .catch(() => undefined)
      .finally(() => {
        running = null
      })
    return running
  }
  const timer = setInterval(() => void tick(), everyMs)
  timer.unref()
  return { tick, stop: () => clearInterval(timer) }
}
