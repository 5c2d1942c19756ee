/**
 * The assistants API as the views meet it (issue 36): an in-memory fake whose handlers answer
 * bodies typed from contracts/assistants.ts and parse each request with its schema (a malformed
 * call gets 400, as from the real server). The server side is built apart, against the same contract.
 */
import { HttpResponse, http } from 'msw'
import {
  type Assistant,
  assistantEndpoints,
  CreateAssistantRequestSchema,
  type DriveFolder,
  UpdateAssistantRequestSchema,
} from '#contracts/assistants.ts'
import { publishingEndpoints } from '#contracts/publishing.ts'
import { assistant } from '#machines/assistants/assistant-fixtures.ts'
import { summaryOf } from '#machines/assistants/assistants-list-machine.ts'
import { errorResponse, okResponse, urlOf } from './msw-server.ts'

/** An assistant as the server answers it: the machines' fixture, so both test layers agree. */
export const assistantFixture = assistant
export { HR_ID } from '#machines/assistants/assistant-fixtures.ts'

/** `folders: 'no-drive'`: a server without Google Drive (D133) answers the folder list with 503. */
type Seed = { assistants?: Assistant[]; folders?: DriveFolder[] | 'no-drive'; models?: string[] }

export function assistantsBackend(seed: Seed = {}) {
  const assistants = new Map((seed.assistants ?? []).map((a) => [a._id, a]))
  const calls = {
    created: [] as string[],
    updated: [] as unknown[],
    deleted: [] as string[],
    secrets: [] as string[],
  }
  let nextId = 1
  const handlers = [
    http.get(urlOf(assistantEndpoints.listAssistants), () =>
      okResponse(assistantEndpoints.listAssistants, {
        success: true,
        data: [...assistants.values()].map(summaryOf),
      }),
    ),
    http.get(urlOf(assistantEndpoints.assistantOptions), () =>
      okResponse(assistantEndpoints.assistantOptions, { success: true, data: { models: seed.models ?? [] } }),
    ),
    http.get(urlOf(assistantEndpoints.listDriveFolders), () =>
      seed.folders === 'no-drive'
        ? errorResponse(503, 'Google Drive is not configured on this server.')
        : okResponse(assistantEndpoints.listDriveFolders, { success: true, data: seed.folders ?? [] }),
    ),
    http.post(urlOf(assistantEndpoints.createAssistant), async ({ request }) => {
      const body = CreateAssistantRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, 'Bad assistant')
      const id = `00000000-0000-4000-8000-00000000000${nextId++}`
      const created = assistantFixture({
        ...body.data,
        _id: id,
        knowledge: assistantFixture().knowledge,
      } as Partial<Assistant>)
      assistants.set(id, created)
      calls.created.push(body.data.name)
      return okResponse(assistantEndpoints.createAssistant, { success: true, data: created }, 201)
    }),
    http.get(urlOf(assistantEndpoints.getAssistant), ({ params }) => {
      const found = assistants.get(String(params.id))
      if (!found) return errorResponse(404, 'Assistant not found')
      return okResponse(assistantEndpoints.getAssistant, { success: true, data: found })
    }),
    http.patch(urlOf(assistantEndpoints.updateAssistant), async ({ request, params }) => {
      const found = assistants.get(String(params.id))
      if (!found) return errorResponse(404, 'Assistant not found')
      const body = UpdateAssistantRequestSchema.safeParse(await request.json())
      if (!body.success) return errorResponse(400, body.error.issues[0]?.message ?? 'Bad assistant')
      calls.updated.push(body.data)
      const { knowledge, ...rest } = body.data
      // As the server: the public id is given the first time it is published, and kept.
      const publicId = found.publicId ?? (rest.published ? 'pub-hr-7Qx' : null)
      const updated = { ...found, ...rest, publicId, updatedAt: new Date().toISOString() } as Assistant
      assistants.set(found._id, updated)
      return okResponse(assistantEndpoints.updateAssistant, { success: true, data: updated })
    }),
    http.delete(urlOf(assistantEndpoints.deleteAssistant), ({ params }) => {
      if (!assistants.delete(String(params.id))) return errorResponse(404, 'Assistant not found')
      calls.deleted.push(String(params.id))
      return HttpResponse.json({ success: true, data: null })
    }),
    http.post(urlOf(publishingEndpoints.rotateIdentitySecret), ({ params }) => {
      const found = assistants.get(String(params.id))
      if (!found) return errorResponse(404, 'Assistant not found')
      const secret = `secret-${calls.secrets.length + 1}`
      calls.secrets.push(secret)
      assistants.set(found._id, { ...found, hasIdentitySecret: true })
      return okResponse(publishingEndpoints.rotateIdentitySecret, { success: true, data: { secret } })
    }),
  ]
  return { handlers, calls }
}
