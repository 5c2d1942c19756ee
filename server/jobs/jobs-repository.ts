/**
 * The `jobs` table (D26): queueing, claiming in turns (D92), and what a worker does to the jobs it
 * holds (renew, put back, delete). Every write to a claimed job names the worker holding it, so a
 * job whose lease ran out (and may belong to another worker now) is left alone.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { jobs } from '../db/schema.ts'

export type Job = {
  id: string
  kind: string
  key: string
  userId: string
  payload: Record<string, unknown>
  /** Claims so far, this one included. */
  attempts: number
}

export type NewJob = Omit<Job, 'id' | 'attempts'>

/** Anything that can run a statement: the database or a transaction. */
type Executor = Pick<Db, 'insert' | 'execute'>

/** Queues `job` unless the same key is already queued or running; true when it was queued. */
export async function enqueueJob(db: Executor, job: NewJob, runAt: Date): Promise<boolean> {
  const rows = await db
    .insert(jobs)
    .values({ ...job, runAt })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id })
  return rows.length > 0
}

/** Makes a queued job (by its key) due at `runAt`: one queued for later, now that it may run. */
export async function makeJobDue(db: Pick<Db, 'update'>, key: string, runAt: Date): Promise<void> {
  await db.update(jobs).set({ runAt }).where(eq(jobs.key, key))
}

/** Rows per insert statement when many jobs are queued at once (well under the bind limit). */
const ENQUEUE_BATCH = 500

/**
 * Queues many jobs with one statement per ENQUEUE_BATCH (a sync queueing 500 files pays a few
 * statements, not 500); as enqueueJob, a key already queued is left alone.
 */
export async function enqueueJobs(db: Executor, batch: readonly NewJob[], runAt: Date): Promise<void> {
  for (let at = 0; at < batch.length; at += ENQUEUE_BATCH) {
    await db
      .insert(jobs)
      .values(batch.slice(at, at + ENQUEUE_BATCH).map((job) => ({ ...job, runAt })))
      .onConflictDoNothing({ target: jobs.key })
  }
}

/** Who has due jobs of these kinds, and how many of theirs run under a live lease anywhere. */
export type DuePerson = { userId: string; due: number; running: number }

export type JobsRepository = ReturnType<typeof createJobsRepository>

/** The statements of one worker, `workerId`. */
export function createJobsRepository(db: Db, workerId: string) {
  /** Only while this worker still holds it: a job whose lease ran out may belong to another now. */
  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, workerId))
  const due = (at: string) =>
    sql`run_at <= ${at}::timestamptz and (locked_until is null or locked_until < ${at}::timestamptz)`
  const kindList = (kinds: readonly string[]) =>
    sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )

  return {
    /** One small aggregate: the people with due jobs, for claim's turns. */
    async duePeople(kinds: readonly string[], at: string): Promise<DuePerson[]> {
      const rows = await queryRows<{ user_id: string; due: number; running: number }>(
        db,
        sql`
        select user_id, (count(*) filter (where ${due(at)}))::int as due,
          (count(*) filter (where locked_until >= ${at}::timestamptz))::int as running
        from ${jobs} where kind in (${kindList(kinds)})
        group by user_id having count(*) filter (where ${due(at)}) > 0`,
      )
      return rows.map((p) => ({ userId: p.user_id, due: Number(p.due), running: Number(p.running) }))
    },

    /** Stamps each person's oldest due jobs, `take` of them, with this worker and a lease, in one update. */
    async claim(
      shares: readonly { userId: string; take: number }[],
      kinds: readonly string[],
      at: string,
      leaseUntil: Date,
    ): Promise<Job[]> {
      // One `in (…)` per person, not a UNION of them: PostgreSQL allows no FOR UPDATE under a UNION.
      const picks = sql.join(
        shares.map(
          ({ userId, take }) => sql`${jobs.id} in (
            select id from ${jobs} where user_id = ${userId} and kind in (${kindList(kinds)}) and ${due(at)}
            order by run_at, id limit ${take} for update skip locked)`,
        ),
        sql` or `,
      )
      const rows = await queryRows<{
        id: string
        kind: string
        key: string
        user_id: string
        payload: Record<string, unknown>
        attempts: number
      }>(
        db,
        sql`
        update ${jobs} set
          locked_by = ${workerId},
          locked_until = ${leaseUntil.toISOString()}::timestamptz,
          attempts = ${jobs.attempts} + 1
        where ${picks}
        returning id, kind, key, user_id, payload, attempts`,
      )
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        key: r.key,
        userId: r.user_id,
        payload: r.payload,
        attempts: Number(r.attempts),
      }))
    },

    async deleteHeld(ids: string[]): Promise<void> {
      await db.delete(jobs).where(and(inArray(jobs.id, ids), eq(jobs.lockedBy, workerId)))
    },

    /** Back in the queue, due at `runAt`, with the error that put it back. */
    async putBack(id: string, error: string, runAt: Date): Promise<void> {
      await db
        .update(jobs)
        .set({ lockedBy: null, lockedUntil: null, lastError: error, runAt })
        .where(mine(id))
    },

    async renewLease(id: string, until: Date): Promise<void> {
      await db.update(jobs).set({ lockedUntil: until }).where(mine(id))
    },

    /** Jobs of these kinds still queued or running for `userId` (any instance's). */
    async pending(userId: string, kinds: readonly string[]): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.userId, userId), inArray(jobs.kind, [...kinds])))
      return row?.n ?? 0
    },
  }
}
