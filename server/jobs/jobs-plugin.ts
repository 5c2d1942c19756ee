/**
 * The background job worker (`app.jobs`, server/jobs/job-queue.ts): feature plugins register
 * their handlers; the worker starts claiming once the app is ready and stops before it closes
 * (preClose: the jobs under way finish, while the database is still open). With metrics on, the
 * jobs by state are read from the table at each scrape.
 */
import fp from 'fastify-plugin'
import { createJobQueue, type JobQueue } from './job-queue.ts'
import { createJobStatsRepository } from './job-stats-repository.ts'

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue
  }
}

export type JobsPluginOptions = {
  now: () => Date
  /** Lease and polling interval; tests shorten them. */
  leaseMs?: number
  pollMs?: number
  concurrency?: number
  perPerson?: number
}

export const jobsPlugin = fp<JobsPluginOptions>(
  async (app, opts) => {
    const jobs = createJobQueue({ db: app.db, log: app.log, ...opts })
    app.decorate('jobs', jobs)
    if (app.metrics) {
      const stats = createJobStatsRepository(app.db)
      app.metrics.ingestJobs(() => stats.ingestJobsByState(opts.now()))
    }
    app.addHook('onReady', async () => {
      jobs.start()
    })
    app.addHook('preClose', async () => {
      await jobs.stop()
    })
  },
  { name: 'jobs', dependencies: ['database', 'operations'] },
)
