/**
 * @fastify/rate-limit with no global limit: only the routes that ask for one are counted (a global
 * limit would also count static files). Counts live in the database (D34), so this
 * registers after the database plugin. Every 429 is the API's envelope, with Retry-After.
 */
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { tooManyAttempts } from './errors.ts'
import { createRateLimitRepository } from './rate-limit-repository.ts'
import { databaseRateLimitStore } from './rate-limit-store.ts'

export const rateLimitPlugin = fp<{ now: () => Date }>(
  async (app, { now }) => {
    await app.register(rateLimit, {
      global: false,
      store: databaseRateLimitStore(createRateLimitRepository(app.db), now),
      errorResponseBuilder: (_request, context) => tooManyAttempts(context.ttl),
    })
  },
  { name: 'rate-limit', dependencies: ['database'] },
)
