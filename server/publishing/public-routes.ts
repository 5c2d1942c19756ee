/**
 * The visitor calls (issue 37), paths and schemas from contracts/publishing.ts' publicEndpoints:
 * no sign-in, no session cookie read or set; another site's page calling directly is refused
 * first (visitor-origin.ts), before anything about the public id is looked up. The answer streams
 * as the app's does (`event:`/`data:` blocks, keep-alive comments) with `token`, then `done` or
 * `error` — no `sources` event: `done` carries the cited snippets only.
 */
import { PassThrough } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { publicEndpoints } from '#contracts/publishing.ts'
import { defineRoute } from '../http/define-route.ts'
import { readVisitorId, visitorIdFor } from './visitor-cookie.ts'
import { refuseForeignPages } from './visitor-origin.ts'
import type { VisitorRun } from './visitor-service.ts'

export const publicRoutes: FastifyPluginAsyncZod<{ heartbeatMs: number }> = async (app, opts) => {
  const { getPublicAssistant, getChallenge, getVisitorConversation, getSignedConversation, ask, feedback } =
    publicEndpoints
  const onRequest = [refuseForeignPages(app.config.publicOrigin)]

  defineRoute(app, getPublicAssistant, {
    auth: 'public',
    onRequest,
    handler: ({ params }) => app.visitors.assistant(params.publicId),
  })

  defineRoute(app, getChallenge, {
    auth: 'public',
    onRequest,
    handler: ({ params }) => app.visitors.challenge(params.publicId),
  })

  defineRoute(app, getVisitorConversation, {
    auth: 'public',
    onRequest,
    handler: ({ params, request }) =>
      app.visitors.conversation(params.publicId, { anonymousId: readVisitorId(request) }),
  })

  // The cookie is neither read nor set: a signed visitor is their token's `sub` on every device.
  defineRoute(app, getSignedConversation, {
    auth: 'public',
    onRequest,
    handler: ({ params, body }) =>
      app.visitors.conversation(params.publicId, { anonymousId: null, userToken: body.userToken }),
  })

  defineRoute(app, ask, {
    auth: 'public',
    onRequest,
    async handler({ params, body, request, reply }) {
      const stop = stopOnClose(reply)
      const run = await app.visitors.openAsk(
        params.publicId,
        body,
        () => visitorIdFor(request, reply),
        request.log,
        stop.signal,
      )
      return streamRun(reply, run, stop, opts.heartbeatMs)
    },
  })

  defineRoute(app, feedback, {
    auth: 'public',
    onRequest,
    handler: ({ params, body, request }) =>
      app.visitors.feedback(
        params.publicId,
        { anonymousId: readVisitorId(request), userToken: body.userToken },
        params.id,
        body.feedback,
      ),
  })
}

/** The visitor closing the page (or the widget) stops the answer. */
function stopOnClose(reply: FastifyReply): AbortController {
  const stop = new AbortController()
  if (reply.raw.destroyed) stop.abort()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) stop.abort()
  })
  return stop
}

/** The run's tokens as they come, then its outcome; a comment line when quiet for `heartbeatMs`. */
function streamRun(reply: FastifyReply, run: VisitorRun, stop: AbortController, heartbeatMs: number) {
  const body = new PassThrough()
  let ended = false
  let quietSince = Date.now()
  const write = (event: string, data: unknown) => {
    if (!ended && !body.destroyed) body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    quietSince = Date.now()
  }
  const heartbeat = setInterval(() => {
    if (!ended && !body.destroyed && Date.now() - quietSince >= heartbeatMs) {
      body.write(': keep-alive\n\n')
      quietSince = Date.now()
    }
  }, heartbeatMs)
  reply.raw.on('close', () => clearInterval(heartbeat))
  void run({ token: (text) => write('token', { text }) }, stop.signal).then((outcome) => {
    write(outcome.event, outcome.data)
    ended = true
    clearInterval(heartbeat)
    body.end()
  })
  return body
}
