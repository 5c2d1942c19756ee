/**
 * The chat calls of SPEC §7, paths and schemas from contracts/chat.ts, all behind sign-in. Ids in
 * paths are checked as uuids (400) and against the signed-in user (404 for anyone else's, as for
 * a missing one). `POST /chat/sessions/:id/files/upload` is left out: the spec defines it but the
 * app never calls it.
 */
import { PassThrough } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { chatEndpoints, IdParamsSchema, MessageParamsSchema } from '#contracts/chat.ts'
import type { AnswerRun } from '../../chat/chat-service.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

/**
 * A comment line on a quiet stream this often: proxies and load balancers close connections that
 * stay silent (nginx after 60 s by default, our own server after 3 minutes, README D32), and a
 * model may think for a while before its first token.
 */
export const STREAM_HEARTBEAT_MS = 15_000

export const chatRoutes: FastifyPluginAsyncZod<{ heartbeatMs?: number }> = async (app, opts) => {
  const heartbeatMs = opts.heartbeatMs ?? STREAM_HEARTBEAT_MS
  const {
    createSession,
    listSessions,
    deleteSession,
    listMessages,
    sendMessage,
    streamMessage,
    regenerateMessage,
    renameSession,
    searchSessions,
    setFeedback,
  } = chatEndpoints

  app.route({
    method: createSession.method,
    url: createSession.path,
    schema: { body: createSession.request, response: { 201: createSession.response } },
    onRequest: app.authenticate,
    async handler(request, reply) {
      const session = await app.chat.createSession(requireUser(request), request.body.title)
      return reply.code(201).send({ success: true, data: session })
    },
  })

  app.route({
    method: listSessions.method,
    url: listSessions.path,
    schema: { response: { 200: listSessions.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.listSessions(requireUser(request)),
    }),
  })

  app.route({
    method: deleteSession.method,
    url: deleteSession.path,
    schema: { params: IdParamsSchema, response: { 200: deleteSession.response } },
    onRequest: app.authenticate,
    async handler(request) {
      await app.chat.deleteSession(requireUser(request), request.params.id)
      return { success: true as const, data: null }
    },
  })

  app.route({
    method: listMessages.method,
    url: listMessages.path,
    schema: { params: IdParamsSchema, response: { 200: listMessages.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.listMessages(requireUser(request), request.params.id),
    }),
  })

  app.route({
    method: sendMessage.method,
    url: sendMessage.path,
    schema: { params: IdParamsSchema, body: sendMessage.request, response: { 200: sendMessage.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.send(requireUser(request), request.params.id, request.body, request.log),
    }),
  })

  app.route({
    method: streamMessage.method,
    url: streamMessage.path,
    schema: { params: IdParamsSchema, body: streamMessage.request },
    onRequest: app.authenticate,
    async handler(request, reply) {
      const stages = new StageTimes()
      const run = await app.chat.openStream(
        requireUser(request),
        request.params.id,
        request.body,
        request.log,
        stages.record,
      )
      return streamAnswer(reply, run, heartbeatMs, stages)
    },
  })

  app.route({
    method: regenerateMessage.method,
    url: regenerateMessage.path,
    schema: { params: MessageParamsSchema },
    onRequest: app.authenticate,
    async handler(request, reply) {
      const { id, messageId } = request.params
      return streamAnswer(
        reply,
        await app.chat.openRegenerate(requireUser(request), id, messageId, request.log),
        heartbeatMs,
      )
    },
  })

  app.route({
    method: renameSession.method,
    url: renameSession.path,
    schema: {
      params: IdParamsSchema,
      body: renameSession.request,
      response: { 200: renameSession.response },
    },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.renameSession(requireUser(request), request.params.id, request.body.title),
    }),
  })

  app.route({
    method: searchSessions.method,
    url: searchSessions.path,
    schema: { querystring: searchSessions.query, response: { 200: searchSessions.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.search(requireUser(request), (request.query as { q: string }).q),
    }),
  })

  app.route({
    method: setFeedback.method,
    url: setFeedback.path,
    schema: { params: IdParamsSchema, body: setFeedback.request, response: { 200: setFeedback.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.setFeedback(requireUser(request), request.params.id, request.body.feedback),
    }),
  })
}

/**
 * Answers `text/event-stream`: the run's tokens and sources as they come, then its outcome. The
 * connection closing before the end (Stop, a closed tab) aborts the run, which stores what it has.
 */
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

function streamAnswer(reply: FastifyReply, run: AnswerRun, heartbeatMs: number, stages?: StageTimes) {
  const body = new PassThrough()
  const stop = new AbortController()
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
  reply.raw.on('close', () => {
    clearInterval(heartbeat)
    if (!ended) stop.abort()
  })
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
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .send(body)
}
