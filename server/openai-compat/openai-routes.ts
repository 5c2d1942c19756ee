/**
 * The OpenAI-compatible calls under /openai/v1 (D130), in a context of their own: its own error
 * and not-found handlers answer in OpenAI's error shape, the key is checked before the body is
 * read (401 before 400, as OpenAI answers), and CORS is on only for the operator's origins. The
 * POST takes no cookie at all, only the Authorization header, which a cross-site form cannot send:
 * it is declared `bearerOnly` instead of carrying the app's cross-site guard.
 */
import { PassThrough } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ChatCompletionRequestSchema } from '#contracts/openai.ts'
import { SERVER_FAULT_MESSAGE } from '../http/error-handler.ts'
import { completionBody, deltaChunk, finalChunk, SSE_DONE, sseData } from './completion-format.ts'
import { applyCors } from './cors.ts'
import type { ApiCaller, VerifyKey } from './key-access.ts'
import { openAiErrorHandler, openAiNotFound } from './openai-error-handler.ts'
import { invalidKey, keyRefused, OpenAiError, serverError } from './openai-errors.ts'
import type { CompletionRun, OpenAiService } from './openai-service.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's holder, once the key was verified (OpenAI-compatible calls only). */
    apiCaller: ApiCaller | null
  }
}

export type OpenAiRoutesOptions = {
  service: OpenAiService
  verifyKey: VerifyKey
  corsOrigins: readonly string[]
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
} as const

export const openAiRoutes: FastifyPluginAsyncZod<OpenAiRoutesOptions> = async (app, opts) => {
  const origins = new Set(opts.corsOrigins)
  app.decorateRequest('apiCaller', null)
  app.setErrorHandler(openAiErrorHandler)
  app.setNotFoundHandler(openAiNotFound)
  app.addHook('onRequest', async (request, reply) => {
    if (applyCors(request, reply, origins)) return reply
    if (request.method === 'OPTIONS') return
    const verdict = await opts.verifyKey(request)
    if ('refused' in verdict) throw keyRefused(verdict)
    request.apiCaller = verdict
  })

  app.route({ method: 'OPTIONS', url: '/*', handler: async (_request, reply) => reply.code(204).send() })

  app.get('/models', async (request) => opts.service.models(callerOf(request)))

  app.route({
    method: 'POST',
    url: '/chat/completions',
    schema: { body: ChatCompletionRequestSchema },
    config: { bearerOnly: true },
    async handler(request, reply) {
      const stop = stopOnClose(reply)
      const run = await opts.service.open(callerOf(request), request.body, stop.signal)
      if (request.body.stream)
        return streamed(reply, run, request.body.stream_options?.include_usage === true)
      return whole(run)
    },
  })
}

function callerOf(request: FastifyRequest): ApiCaller {
  if (!request.apiCaller) throw invalidKey()
  return request.apiCaller
}

/** The caller going away stops the answer. */
function stopOnClose(reply: FastifyReply): AbortController {
  const stop = new AbortController()
  if (reply.raw.destroyed) stop.abort()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) stop.abort()
  })
  return stop
}

async function whole(run: CompletionRun) {
  for (;;) {
    const next = await run.pieces.next()
    if (next.done) return completionBody(run.meta, { ...next.value, text: next.value.text.trim() })
  }
}

/**
 * The pieces as `chat.completion.chunk` events. The first piece is awaited before the answer
 * starts, so a model that fails at once is a proper error status; a failure later is an `error`
 * event (as OpenAI sends one), then the stream ends.
 */
async function streamed(reply: FastifyReply, run: CompletionRun, includeUsage: boolean) {
  const first = await run.pieces.next()
  const body = new PassThrough()
  const write = (text: string) => {
    if (!body.destroyed) body.write(text)
  }
  write(sseData(deltaChunk(run.meta, { role: 'assistant', content: '' })))
  void (async () => {
    try {
      let next = first
      while (!next.done) {
        write(sseData(deltaChunk(run.meta, { content: next.value })))
        next = await run.pieces.next()
      }
      write(sseData(finalChunk(run.meta, next.value, includeUsage)))
      write(SSE_DONE)
    } catch (error) {
      const failure = error instanceof OpenAiError ? error : null
      write(sseData((failure ?? serverError(500, SERVER_FAULT_MESSAGE)).body()))
      if (!failure) reply.log.error({ err: error }, 'an API answer failed while streaming')
    } finally {
      body.end()
    }
  })()
  return reply.code(200).headers(EVENT_STREAM_HEADERS).send(body)
}
