/**
 * The owner's publishing calls of this domain (issue 37): making or rotating an assistant's
 * identity secret, shown in this answer only, and the inbox of visitor conversations (the list,
 * its CSV export, one conversation, deleting one or all). The settings travel with PATCH
 * /assistants/:id (the assistants' call, which reads and writes them through the PublishingPort).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { publishingEndpoints } from '#contracts/publishing.ts'
import { defineRoute } from '../http/define-route.ts'
import { sendFile } from '../http/file-reply.ts'

export const publishingRoutes: FastifyPluginAsyncZod = async (app) => {
  defineRoute(app, publishingEndpoints.rotateIdentitySecret, {
    auth: 'user',
    handler: ({ user, params }) => app.publishing.rotateIdentitySecret(user, params.id),
  })

  defineRoute(app, publishingEndpoints.inbox, {
    auth: 'user',
    async handler({ user, params, query, reply }) {
      if (query.format !== 'csv') return app.inbox.list(user, params.id, query)
      const { fileName, text } = await app.inbox.csv(user, params.id, query.filter ?? 'all')
      const bytes = new TextEncoder().encode(text)
      // The same call answers a file when asked for CSV: the browser downloads it from a link.
      return sendFile(reply, {
        bytes,
        contentType: 'text/csv; charset=utf-8',
        fileName,
        disposition: 'attachment',
      })
    },
  })

  defineRoute(app, publishingEndpoints.inboxConversation, {
    auth: 'user',
    handler: ({ user, params }) => app.inbox.conversation(user, params.id, params.conversationId),
  })

  defineRoute(app, publishingEndpoints.deleteInboxConversations, {
    auth: 'user',
    handler: ({ user, params }) => app.inbox.deleteAll(user, params.id),
  })

  defineRoute(app, publishingEndpoints.deleteInboxConversation, {
    auth: 'user',
    handler: ({ user, params }) => app.inbox.deleteOne(user, params.id, params.conversationId),
  })
}
