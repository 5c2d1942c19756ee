/**
 * Background ingest work by state, for /metrics (D40): read from the `jobs` table and the
 * library's documents, so every instance sharing one database reports the same figures, and a
 * job whose process died shows as stalled rather than vanishing.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { jobs, libraryDocuments } from '../db/schema.ts'

/**
 * queued: waiting for its first run; running: held under a live lease; retrying: put back after a
 * transient failure (Google busy), waiting for its next run; stalled: its lease ran out without
 * renewal (the process holding it died), waiting to be claimed again; failed: documents whose
 * ingest failed for good (their jobs are gone; the document keeps the reason).
 */
export const INGEST_JOB_STATES = ['queued', 'running', 'retrying', 'stalled', 'failed'] as const

export type IngestJobState = (typeof INGEST_JOB_STATES)[number]

export function createJobStatsRepository(db: Db) {
  return {
    async ingestJobsByState(now: Date): Promise<Record<IngestJobState, number>> {
      const at = now.toISOString()
      const rows = await queryRows<{ state: IngestJobState; n: number }>(
        db,
        sql`
        select state, count(*)::int as n from (
          select case
            when ${jobs.lockedUntil} >= ${at}::timestamptz then 'running'
            when ${jobs.lockedBy} is not null then 'stalled'
            when ${jobs.attempts} > 0 then 'retrying'
            else 'queued'
          end as state
          from ${jobs}
        ) as by_state
        group by state
        union all
        select 'failed', count(*)::int from ${libraryDocuments} where ${libraryDocuments.status} = 'failed' and not ${libraryDocuments.excluded}`,
      )
      const counts = Object.fromEntries(INGEST_JOB_STATES.map((s) => [s, 0])) as Record<
        IngestJobState,
        number
      >
      for (const row of rows) counts[row.state] = Number(row.n)
      return counts
    },
  }
}
