/**
 * @fastify/rate-limit with no global limit: only the routes that ask for one are counted (a global
 * limit would also count static files). Every 429 is the API's envelope, with Retry-After.
 */
import rateLimit from '@fastify/rate-limit'
import { tooManyAttempts } from '../../http-errors.ts'
import { sharedPlugin } from '../shared-plugin.ts'

export const rateLimitPlugin = sharedPlugin('rate-limit', async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyAttempts(context.ttl),
  })
})
