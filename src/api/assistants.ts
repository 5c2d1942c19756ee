/** One client function per assistants endpoint (issue 36); the deps injected into the assistants' machines. */
import {
  type Assistant,
  type AssistantSummary,
  assistantEndpoints,
  type CreateAssistantRequest,
  type DriveFolder,
  type UpdateAssistantRequest,
} from '#contracts/assistants.ts'
import type { Http } from './client.ts'

export function createAssistantsApi(http: Http) {
  return {
    async listAssistants(): Promise<AssistantSummary[]> {
      return (await http(assistantEndpoints.listAssistants)).data
    },
    async createAssistant(body: CreateAssistantRequest): Promise<Assistant> {
      return (await http(assistantEndpoints.createAssistant, { body })).data
    },
    /** The models an assistant may be set to on this server (empty: only the default). */
    async assistantOptions(): Promise<{ models: string[] }> {
      return (await http(assistantEndpoints.assistantOptions)).data
    },
    async getAssistant(id: string): Promise<Assistant> {
      return (await http(assistantEndpoints.getAssistant, { params: { id } })).data
    },
    async updateAssistant(id: string, body: UpdateAssistantRequest): Promise<Assistant> {
      return (await http(assistantEndpoints.updateAssistant, { params: { id }, body })).data
    },
    async deleteAssistant(id: string): Promise<void> {
      await http(assistantEndpoints.deleteAssistant, { params: { id } })
    },
    async listDriveFolders(): Promise<DriveFolder[]> {
      return (await http(assistantEndpoints.listDriveFolders)).data
    },
  }
}

export type AssistantsApi = ReturnType<typeof createAssistantsApi>
