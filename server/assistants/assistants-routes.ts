/**
 * The assistants' calls (issue 36), paths and schemas from contracts/assistants.ts, all behind
 * sign-in; ids in paths are checked as uuids (400) and against the signed-in person (404 for
 * anyone else's). GET /google-drive/folders, the picker's folders, is the Drive plugin's.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { defineRoute } from '../http/define-route.ts'

export const assistantsRoutes: FastifyPluginAsyncZod = async (app) => {
  const {
    listAssistants,
    createAssistant,
    assistantOptions,
    getAssistant,
    updateAssistant,
    deleteAssistant,
  } = assistantEndpoints

  defineRoute(app, listAssistants, { auth: 'user', handler: ({ user }) => app.assistants.list(user) })

  defineRoute(app, createAssistant, {
    auth: 'user',
    handler: ({ user, body }) => app.assistants.create(user, body),
  })

  defineRoute(app, assistantOptions, { auth: 'user', handler: () => app.assistants.options() })

  defineRoute(app, getAssistant, {
    auth: 'user',
    handler: ({ user, params }) => app.assistants.get(user, params.id),
  })

  defineRoute(app, updateAssistant, {
    auth: 'user',
    handler: ({ user, params, body }) => app.assistants.update(user, params.id, body),
  })

  defineRoute(app, deleteAssistant, {
    auth: 'user',
    async handler({ user, params }) {
      await app.assistants.remove(user, params.id)
      return null
    },
  })
}
