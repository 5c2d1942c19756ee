/**
 * Assistants (issue 36, D113): their calls (assistants-routes.ts) and `app.assistants`, the
 * service the calls and the chat use. Drive folder knowledge is read through `app.driveFolders`
 * (the Drive plugin's DriveFolders: without Google configured, no folder is known, so none can be
 * chosen).
 */
import fp from 'fastify-plugin'
import type { DriveFolders } from '../drive/drive-folders.ts'
import { createAssistantsRepository } from './assistants-repository.ts'
import { assistantsRoutes } from './assistants-routes.ts'
import { AssistantsService } from './assistants-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    assistants: AssistantsService
  }
}

export type AssistantsPluginOptions = {
  now: () => Date
  /** LLM_MODELS. */
  models: readonly string[]
  /** Replaces the Drive's folders (tests of the assistants without a Drive). */
  driveFolders?: DriveFolders
}

export const assistantsPlugin = fp<AssistantsPluginOptions>(
  async (app, opts) => {
    app.decorate(
      'assistants',
      new AssistantsService({
        rows: createAssistantsRepository(app.db),
        folders: opts.driveFolders ?? app.driveFolders,
        now: opts.now,
        models: opts.models,
      }),
    )
    await app.register(assistantsRoutes)
  },
  {
    name: 'assistants',
    dependencies: ['database', 'request-guards', 'authentication', 'documents', 'drive'],
  },
)
