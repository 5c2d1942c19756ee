/** One client function per assistants endpoint (issue 36); the deps injected into machines/assistants. */
import {
  type Assistant,
  type AssistantSummary,
  assistantEndpoints,
  type CreateAssistantRequest,
  type UpdateAssistantRequest,
} from '#contracts/assistants.ts'
import type { Http } from './client.ts'

export function createAssistantsApi(http: Http) {
  return {
    async list(): Promise<AssistantSummary[]> {
      return (await http(assistantEndpoints.listAssistants)).data
    },
    async create(fields: CreateAssistantRequest): Promise<Assistant> {
      return (await http(assistantEndpoints.createAssistant, { body: fields })).data
    },
    /** The model names an assistant may choose (the operator's LLM_MODELS; empty: only the default). */
    async options(): Promise<{ models: string[] }> {
      return (await http(assistantEndpoints.assistantOptions)).data
    },
    async get(id: string): Promise<Assistant> {
      return (await http(assistantEndpoints.getAssistant, { params: { id } })).data
    },
    async update(id: string, fields: UpdateAssistantRequest): Promise<Assistant> {
      return (await http(assistantEndpoints.updateAssistant, { params: { id }, body: fields })).data
    },
    async remove(id: string): Promise<void> {
      await http(assistantEndpoints.deleteAssistant, { params: { id } })
    },
  }
}

export type AssistantsApi = ReturnType<typeof createAssistantsApi>
