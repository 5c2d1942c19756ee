/** Cookie parsing and `reply.setCookie` (@fastify/cookie); the session cookies are in auth/cookies.ts. */
import cookie from '@fastify/cookie'
import { sharedPlugin } from '../plugins/shared-plugin.ts'

export const cookiesPlugin = sharedPlugin('cookies', async (app) => {
  await app.register(cookie)
})
