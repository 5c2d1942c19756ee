/**
 * Each plugin names the plugins it needs (fastify-plugin `dependencies`) and Fastify holds them to
 * it: a plugin registered without one, or before it, stops the app from starting with a sentence
 * naming both, instead of failing later on an undefined `app.something`.
 */
import cookie from '@fastify/cookie'
import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterEach, expect, test } from 'vitest'
import { answeringPlugin } from '#server/answering/answering-plugin.ts'
import { assistantsPlugin } from '#server/assistants/assistants-plugin.ts'
import { authPlugin } from '#server/auth/auth-plugin.ts'
import { chatPlugin } from '#server/chat/chat-plugin.ts'
import { databasePlugin } from '#server/db/database-plugin.ts'
import { documentsPlugin } from '#server/documents/documents-plugin.ts'
import { drivePlugin } from '#server/drive/drive-plugin.ts'
import { rateLimitPlugin } from '#server/http/rate-limit.ts'
import { requestGuardsPlugin } from '#server/http/request-guards.ts'
import { jobsPlugin } from '#server/jobs/jobs-plugin.ts'
import { mailPlugin } from '#server/mail/mail-plugin.ts'
import { operationsPlugin } from '#server/operations/operations-plugin.ts'
import { testConfig, UNLIMITED_AUTH } from './support/helper.ts'

const config = testConfig()
const now = () => new Date()
const apps: Array<ReturnType<typeof Fastify>> = []

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

function bareApp() {
  const app = Fastify({ logger: false })
  apps.push(app)
  return app
}

/** Every plugin that needs another, with the first one it names. */
const cases = [
  ['operations', 'database', operationsPlugin, { metrics: config.metrics }],
  ['rate-limit', 'database', rateLimitPlugin, { now }],
  [
    'authentication',
    'database',
    authPlugin,
    { appSecret: config.appSecret, now, rateLimits: UNLIMITED_AUTH, google: null },
  ],
  ['answering', 'database', answeringPlugin, { llm: null, retrieval: config.retrieval }],
  ['assistants', 'database', assistantsPlugin, { now, models: [] }],
  ['chat', 'database', chatPlugin, { now }],
  ['jobs', 'database', jobsPlugin, { now }],
  ['documents', 'database', documentsPlugin, { now }],
  ['drive', 'database', drivePlugin, { google: null, now, syncIntervalMs: 0 }],
] as const

test.each(cases)(
  'the %s plugin on its own does not start: it needs %s',
  async (name, missing, plugin, options) => {
    const app = bareApp()
    // @ts-expect-error each plugin with its own options, from a table
    const registering = app.register(plugin, options)
    await expect(registering).rejects.toMatchObject({
      code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
      message: `The dependency '${missing}' of plugin '${name}' is not registered`,
    })
  },
)

test('the chat registered before the assistant is refused, though everything else it needs is there', async () => {
  const app = bareApp().withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('config', config)
  await app.register(cookie)
  await app.register(requestGuardsPlugin, { publicOrigin: config.publicOrigin })
  await app.register(databasePlugin, { config })
  await app.register(rateLimitPlugin, { now })
  await app.register(mailPlugin, { mail: config.mail })
  await app.register(authPlugin, {
    appSecret: config.appSecret,
    now,
    rateLimits: UNLIMITED_AUTH,
    google: null,
  })

  await expect(app.register(chatPlugin, { now })).rejects.toThrow(
    "The dependency 'answering' of plugin 'chat' is not registered",
  )
})
