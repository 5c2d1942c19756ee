/**
 * The chat calls of product §7, paths and schemas from contracts/chat.ts, all behind sign-in. Ids in
 * paths are checked as uuids (400) and against the signed-in user (404 for anyone else's, as for
 * a missing one). The spec's upload call (`/chat/sessions/:id/files/upload`) is declared with the
 * document routes, where multipart bodies are accepted.
 */
import { PassThrough } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { chatEndpoints } from '#contracts/chat.ts'
import { defineRoute } from '../http/define-route.ts'
import type { AnswerRun } from './answer-runs.ts'

/**
 * A comment line on a quiet stream this often: proxies and load balancers close connections that
 * stay silent (nginx after 60 s by default, our own server after 3 minutes, D32), and a
 * model may think for a while before its first token.
 */
export const STREAM_HEARTBEAT_MS = 15_000

export const chatRoutes: FastifyPluginAsyncZod<{ heartbeatMs?: number }> = async (app, opts) => {
  const heartbeatMs = opts.heartbeatMs ?? STREAM_HEARTBEAT_MS
  const {
    createConversation,
    listConversations,
    deleteConversation,
    listMessages,
    sendMessage,
    streamMessage,
    regenerateMessage,
    updateConversation,
    searchConversations,
    setFeedback,
    showAnswerVersion,
    explainDislike,
  } = chatEndpoints

  defineRoute(app, createConversation, {
    auth: 'user',
    handler: ({ user, body }) => app.chat.createConversation(user, body),
  })

  defineRoute(app, listConversations, {
    auth: 'user',
    handler: ({ user }) => app.chat.listConversations(user),
  })

  defineRoute(app, deleteConversation, {
    auth: 'user',
    async handler({ user, params }) {
      await app.chat.deleteConversation(user, params.id)
      return null
    },
  })

  defineRoute(app, listMessages, {
    auth: 'user',
    handler: ({ user, params }) => app.chat.listMessages(user, params.id),
  })

  defineRoute(app, sendMessage, {
    auth: 'user',
    handler: ({ user, params, body, request }) => app.chat.send(user, params.id, body, request.log),
  })

  defineRoute(app, streamMessage, {
    auth: 'user',
    async handler({ user, params, body, request, reply }) {
      const stages = new StageTimes()
      const stop = stopOnClose(reply)
      const run = await app.chat.openStream(user, params.id, body, request.log, {
        timer: stages.record,
        signal: stop.signal,
      })
      return streamAnswer(reply, run, stop, heartbeatMs, stages)
    },
  })

  defineRoute(app, regenerateMessage, {
    auth: 'user',
    async handler({ user, params, request, reply }) {
      const stop = stopOnClose(reply)
      const run = await app.chat.openRegenerate(user, params.id, params.messageId, request.log, stop.signal)
      return streamAnswer(reply, run, stop, heartbeatMs)
    },
  })

  defineRoute(app, updateConversation, {
    auth: 'user',
    handler: ({ user, params, body }) => app.chat.updateConversation(user, params.id, body),
  })

  defineRoute(app, searchConversations, {
    auth: 'user',
    handler: ({ user, query }) => app.chat.search(user, query.q),
  })

  defineRoute(app, setFeedback, {
    auth: 'user',
    handler: ({ user, params, body }) => app.chat.setFeedback(user, params.id, body.feedback),
  })

  defineRoute(app, showAnswerVersion, {
    auth: 'user',
    handler: ({ user, params, body }) => app.chat.showVersion(user, params.id, body.version),
  })

  defineRoute(app, explainDislike, {
    auth: 'user',
    handler: ({ user, params, body }) => app.chat.explainDislike(user, params.id, body),
  })
}

/**
 * Stop: the connection closing before the answer is complete (Stop, a closed tab). Listened to
 * from the handler's first line, so a Stop during any stage before the first word (the claim,
 * the rewrite of a follow-up, retrieval) is heard too, not only one during the model's answer.
 */
function stopOnClose(reply: FastifyReply): AbortController {
  const stop = new AbortController()
  if (reply.raw.destroyed) stop.abort()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) stop.abort()
  })
  return stop
}

/**
 * How long each stage before the model's answer took (claim, history, rewrite, retrieve; `open`:
 * the whole handler before the stream starts), sent as a Server-Timing header (browsers show it
 * in the network panel; bench/chat-stream.ts reads it) and logged at debug level with the time
 * to the first token.
 */
class StageTimes {
  readonly started = performance.now()
  readonly stages: Record<string, number> = {}
  record = (stage: string, ms: number) => {
    this.stages[stage] = Math.round(ms * 10) / 10
  }
  since = () => Math.round((performance.now() - this.started) * 10) / 10
  header(): string {
    return [...Object.entries(this.stages), ['open', this.since()] as const]
      .map(([stage, ms]) => `${stage};dur=${ms}`)
      .join(', ')
  }
}

/**
 * The body of a `text/event-stream` answer: the run's tokens and sources as they come, then its
 * outcome. `stop` aborting (stopOnClose) ends the run, which stores what it has.
 */
function streamAnswer(
  reply: FastifyReply,
  run: AnswerRun,
  stop: AbortController,
  heartbeatMs: number,
  stages?: StageTimes,
): PassThrough {
  const body = new PassThrough()
  let ended = false
  let quietSince = Date.now()
  const write = (event: string, data: unknown) => {
    if (!ended && !body.destroyed) body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    quietSince = Date.now()
  }
  // An SSE comment (ignored by every parser, ours included) whenever nothing was sent for a while.
  const heartbeat = setInterval(() => {
    if (!ended && !body.destroyed && Date.now() - quietSince >= heartbeatMs) {
      body.write(': keep-alive\n\n')
      quietSince = Date.now()
    }
  }, heartbeatMs)
  reply.raw.on('close', () => clearInterval(heartbeat))
  let firstToken = true
  const token = (text: string) => {
    if (firstToken && stages) {
      firstToken = false
      reply.log.debug(
        { event: 'chat.stream.first-token', ms: stages.since(), stages: stages.stages },
        'first token sent',
      )
    }
    write('token', { text })
  }
  void run({ token, sources: (sources) => write('sources', { sources }) }, stop.signal).then((outcome) => {
    write(outcome.event, outcome.data)
    ended = true
    clearInterval(heartbeat)
    body.end()
  })
  if (stages) reply.header('server-timing', stages.header())
  // The headers leave now, not with the first token: the browser sets up its reader while the
  // model thinks, so the first token is only parsed and painted when it comes (D143).
  body.write(': open\n\n')
  return body
}
