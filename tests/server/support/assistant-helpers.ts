/**
 * What the assistants' tests share: the calls through `inject` with the contract's paths, and a
 * DriveFolders made of plain maps (folder id → name and the library documents it holds now),
 * for the tests that need folders without a Google emulator; changing a map is what a sync does.
 */
import { type Assistant, assistantEndpoints } from '#contracts/assistants.ts'
import { type Conversation, chatEndpoints } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import type { DriveFolders } from '#server/drive/drive-folders.ts'
import { call } from './chat-helpers.ts'

export function createAssistant(app: App, cookie: string, body: Record<string, unknown>) {
  return call(app, assistantEndpoints.createAssistant, { cookie, body })
}

export async function createAssistantOk(
  app: App,
  cookie: string,
  body: Record<string, unknown>,
): Promise<Assistant> {
  const response = await createAssistant(app, cookie, body)
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return assistantEndpoints.createAssistant.response.parse(response.json()).data
}

/** A conversation with `assistantId` (and a scope of its own when given). */
export async function createWithAssistantOk(
  app: App,
  cookie: string,
  assistantId: string,
  scope?: string[],
): Promise<Conversation> {
  const response = await call(app, chatEndpoints.createConversation, {
    cookie,
    body: { title: 'With an assistant', assistantId, ...(scope ? { scope: { documentIds: scope } } : {}) },
  })
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return chatEndpoints.createConversation.response.parse(response.json()).data
}

export type FakeFolder = { name: string; documentIds: string[] }

/** Folders by id, per person; `gone` folders are known but deleted in Drive (missing, empty). */
export function fakeDriveFolders(folders: Map<string, Map<string, FakeFolder>>, gone = new Set<string>()) {
  const of = (userId: string) => folders.get(userId) ?? new Map<string, FakeFolder>()
  const port: DriveFolders = {
    list: async (userId) => [...of(userId)].map(([id, f]) => ({ id, name: f.name, parentId: null })),
    documentIdsIn: async (userId, ids) =>
      ids.flatMap((id) => (gone.has(id) ? [] : (of(userId).get(id)?.documentIds ?? []))),
    describe: async (userId, ids) =>
      ids.map((id) => {
        const folder = of(userId).get(id)
        const missing = gone.has(id) || !folder
        return {
          id,
          name: folder?.name ?? id,
          missing,
          documentCount: missing ? 0 : folder.documentIds.length,
        }
      }),
    unknown: async (userId, ids) => ids.filter((id) => !of(userId).has(id)),
  }
  return port
}
