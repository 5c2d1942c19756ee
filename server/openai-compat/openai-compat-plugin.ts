/**
 * The OpenAI-compatible endpoint at `{PUBLIC_URL}/openai/v1` (issue 38, D130): `GET /models` and
 * `POST /chat/completions`, for a personal API key with the `chat` scope. Above the assistants and
 * the answering it reuses (`app.answerer` with an assistant's knowledge and settings, as a
 * published assistant's visitor is answered), beside chat and publishing: it stores no
 * conversation. Quotas are counted in the database (api-quotas.ts).
 */
import fp from 'fastify-plugin'
import { OPENAI_PREFIX } from '#contracts/openai.ts'
import { isRefusal } from '../api-keys/key-authentication.ts'
import { AssistantNotFound } from '../assistants/assistant-errors.ts'
import { createApiQuotas } from './api-quotas.ts'
import { callerOf, type VerifyKey } from './key-access.ts'
import { openAiRoutes } from './openai-routes.ts'
import { OpenAiService } from './openai-service.ts'

export type OpenAiCompatOptions = { now: () => Date }

export const openAiCompatPlugin = fp<OpenAiCompatOptions>(
  async (app, opts) => {
    const { config } = app
    /** The keys domain's check, scope `chat` (a key without it: 403); the key's holder is the request's. */
    const verifyKey: VerifyKey = async (request) => {
      const result = await app.apiKeys.authenticate(request, 'chat')
      if (isRefusal(result)) return result
      request.apiKey = result
      return callerOf(result)
    }
    const service = new OpenAiService({
      answerer: app.answerer,
      assistants: {
        list: async (userId) =>
          (await app.assistants.list({ id: userId })).map((a) => ({
            id: a._id,
            name: a.name,
            changedAt: Math.floor(Date.parse(a.updatedAt) / 1000),
          })),
        find: (userId, id) =>
          app.assistants.forConversation({ id: userId }, id).catch((error: unknown) => {
            if (error instanceof AssistantNotFound) return null
            throw error
          }),
        settings: (userId, id) => app.assistants.answerSettings(userId, id),
      },
      quotas: createApiQuotas({ db: app.db, now: opts.now }),
      limits: {
        tokensPerDay: config.apiKeyLimits.tokensPerDay,
        usageTokensPerDay: config.usageTokensPerDay,
        answersAtOnce: config.llmConcurrencyPerUser,
      },
      now: opts.now,
      modelAnswers: config.llm !== null,
    })
    await app.register(openAiRoutes, {
      prefix: OPENAI_PREFIX,
      service,
      verifyKey,
      corsOrigins: config.apiCorsOrigins,
    })
  },
  {
    name: 'openai-compat',
    dependencies: ['database', 'request-guards', 'security-headers', 'api-keys', 'answering', 'assistants'],
  },
)
