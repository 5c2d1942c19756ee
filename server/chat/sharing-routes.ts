/**
 * Exporting a conversation and sharing read-only links to it (contracts/sharing.ts, D73). All
 * behind sign-in and the owner check but the shared snapshot, which anyone with the link reads:
 * counted per address, never indexed by search engines, never cached.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sharingEndpoints } from '#contracts/sharing.ts'
import { limitPerIp } from '../auth/rate-limits.ts'
import { defineRoute } from '../http/define-route.ts'
import { NO_INDEX } from '../http/spa.ts'

const MINUTE = 60_000

/** What each person or address may do, per window: generous for people, a wall for scripts. */
export const SHARING_LIMITS = {
  exportsPerUser: { max: 30, timeWindowMs: 10 * MINUTE },
  sharesPerUser: { max: 60, timeWindowMs: 60 * MINUTE },
  openingsPerAddress: { max: 60, timeWindowMs: MINUTE },
} as const

export const sharingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { exportConversation, shareConversation, unshareConversation, listShares, getSharedConversation } =
    sharingEndpoints

  const perUser = (name: string, limit: { max: number; timeWindowMs: number }) =>
    app.rateLimit({
      max: limit.max,
      timeWindow: limit.timeWindowMs,
      keyGenerator: (request) => `${name}:user:${request.user?.id ?? request.ip}`,
    })

  defineRoute(app, exportConversation, {
    auth: 'user',
    onRequest: [perUser('export', SHARING_LIMITS.exportsPerUser)],
    handler: ({ user, params, query }) => app.shares.exportFile(user.id, params.id, query),
  })

  defineRoute(app, shareConversation, {
    auth: 'user',
    onRequest: [perUser('share', SHARING_LIMITS.sharesPerUser)],
    handler: ({ user, params }) => app.shares.share(user.id, params.id),
  })

  defineRoute(app, unshareConversation, {
    auth: 'user',
    async handler({ user, params }) {
      await app.shares.unshare(user.id, params.id)
      return null
    },
  })

  defineRoute(app, listShares, { auth: 'user', handler: ({ user }) => app.shares.list(user.id) })

  defineRoute(app, getSharedConversation, {
    auth: 'public',
    onRequest: [noIndex, limitPerIp(app, 'shared-conversation', SHARING_LIMITS.openingsPerAddress)],
    handler: ({ params }) => app.shares.open(params.token),
  })
}

function noIndex(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('x-robots-tag', NO_INDEX)
  done()
}
