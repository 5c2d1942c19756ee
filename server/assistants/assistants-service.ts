/**
 * Assistants (issue 36, D113): what a person builds from their documents and Drive folders.
 * Routes stay thin and call this; the SQL is in assistants-repository.ts; Drive folders are read
 * through the DriveFolders port (server/drive/drive-folders.ts). Every id is checked against the
 * signed-in person: another person's assistant is not found (404), a document or folder that is
 * not theirs is refused naming it (400). `answerSettings` is what the chat hands answering.
 */
import {
  ASSISTANTS_PER_PERSON,
  type Assistant,
  type AssistantSummary,
  type CreateAssistantRequest,
  DEFAULT_FALLBACK_ANSWER,
  type KnowledgeRequest,
  type UpdateAssistantRequest,
} from '#contracts/assistants.ts'
import {
  DEFAULT_PUBLISHING,
  type Publishing,
  type PublishingRequest,
  PublishingRequestSchema,
} from '#contracts/publishing.ts'
import type { AnswerSettings } from '../answering/answer-shapes.ts'
import type { DriveFolders } from '../drive/drive-folders.ts'
import {
  AssistantNotFound,
  DocumentNotInLibrary,
  FolderNotInDrive,
  ModelNotOffered,
  TooManyAssistants,
} from './assistant-errors.ts'
import type {
  AssistantFields,
  AssistantRecord,
  AssistantsRepository,
  KnowledgeIds,
  MissingDocuments,
} from './assistants-repository.ts'

/**
 * What a conversation with a deleted assistant answers, whatever is asked (D113): nothing is
 * searched and no model is asked; the conversation stays readable.
 */
export const DELETED_ASSISTANT_REPLY =
  'The assistant this conversation was with has been deleted, so I can no longer answer here. ' +
  'Start a new chat to keep asking.'

type Owner = { id: string }

/**
 * How an assistant is published (issue 37): the publishing domain, which sits above this one,
 * plugs itself in here (`usePublishing`), so the assistant's own calls read and edit its
 * publishing settings without this domain knowing how they are kept.
 */
export type PublishingPort = {
  view(userId: string, assistantId: string): Promise<Publishing>
  /** Applies the publishing fields of an edit; called only with at least one. */
  apply(userId: string, assistantId: string, changes: Partial<PublishingRequest>): Promise<void>
}

/** An assistant nobody has published (and what the DTO says without a publishing domain). */
export const UNPUBLISHED: Publishing = DEFAULT_PUBLISHING

const NO_PUBLISHING: PublishingPort = {
  view: async () => UNPUBLISHED,
  apply: async () => {},
}

const PUBLISHING_FIELDS = new Set(Object.keys(PublishingRequestSchema.shape))

/** Splits an edit into the assistant's own fields and its publishing ones (absent ones dropped). */
function splitEdit(request: UpdateAssistantRequest) {
  const own: Record<string, unknown> = {}
  const publishing: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined) continue
    ;(PUBLISHING_FIELDS.has(key) ? publishing : own)[key] = value
  }
  return {
    own: own as Omit<UpdateAssistantRequest, keyof PublishingRequest>,
    publishing: publishing as Partial<PublishingRequest>,
  }
}

type Deps = {
  rows: AssistantsRepository
  folders: DriveFolders
  now: () => Date
  /** LLM_MODELS: the only model names an assistant may be set to (empty: none but the default). */
  models: readonly string[]
  /** How many assistants one person may have (ASSISTANTS_PER_PERSON unless a test lowers it). */
  perPerson?: number
}

const DELETED_SETTINGS: AnswerSettings = {
  knowledge: [],
  instructions: '',
  policy: 'documents-only',
  fallback: DELETED_ASSISTANT_REPLY,
  temperature: null,
  maxTokens: null,
  model: null,
}

function refuseMissing<T>(result: T | MissingDocuments): T {
  if (result && typeof result === 'object' && 'missing' in result)
    throw new DocumentNotInLibrary(result.missing[0] ?? '')
  return result
}

export class AssistantsService {
  readonly #rows: AssistantsRepository
  readonly #folders: DriveFolders
  readonly #now: () => Date
  readonly #models: readonly string[]
  readonly #perPerson: number
  #publishing: PublishingPort = NO_PUBLISHING

  constructor({ rows, folders, now, models, perPerson = ASSISTANTS_PER_PERSON }: Deps) {
    this.#rows = rows
    this.#folders = folders
    this.#now = now
    this.#models = models
    this.#perPerson = perPerson
  }

  /** The publishing domain plugs in here when it starts (issue 37). */
  usePublishing(port: PublishingPort): void {
    this.#publishing = port
  }

  options(): { models: string[] } {
    return { models: [...this.#models] }
  }

  async list(user: Owner): Promise<AssistantSummary[]> {
    return (await this.#rows.listAssistants(user.id)).map((a) => ({
      _id: a.id,
      name: a.name,
      description: a.description,
      answerPolicy: a.answerPolicy,
      updatedAt: a.updatedAt.toISOString(),
      documentCount: a.documentCount,
      folderCount: a.folderCount,
    }))
  }

  async get(user: Owner, id: string): Promise<Assistant> {
    const record = await this.#rows.findAssistant(user.id, id)
    if (!record) throw new AssistantNotFound()
    return this.#dto(user, record)
  }

  async create(user: Owner, request: CreateAssistantRequest): Promise<Assistant> {
    const fields: AssistantFields = {
      name: request.name,
      description: request.description ?? '',
      instructions: request.instructions ?? '',
      starterQuestions: request.starterQuestions ?? [],
      answerPolicy: request.answerPolicy ?? 'documents-only',
      fallbackAnswer: request.fallbackAnswer ?? DEFAULT_FALLBACK_ANSWER,
      temperature: request.temperature ?? null,
      maxAnswerTokens: request.maxAnswerTokens ?? null,
      model: this.#checkedModel(request.model ?? null),
    }
    const knowledge = await this.#checkedKnowledge(
      user,
      request.knowledge ?? { documentIds: [], folderIds: [] },
    )
    const created = await this.#rows.createAssistant({
      userId: user.id,
      fields,
      knowledge,
      now: this.#now(),
      limit: this.#perPerson,
    })
    if (created === 'limit') throw new TooManyAssistants()
    return this.#dto(user, refuseMissing(created))
  }

  async update(user: Owner, id: string, request: UpdateAssistantRequest): Promise<Assistant> {
    const { own, publishing } = splitEdit(request)
    const { knowledge: wanted, model, ...rest } = own
    const fields: Partial<AssistantFields> = rest
    if (model !== undefined) fields.model = this.#checkedModel(model)
    // Another person's id answers 404 before anything about its knowledge is said.
    if (!(await this.#rows.findAssistant(user.id, id))) throw new AssistantNotFound()
    const knowledge = wanted ? await this.#checkedKnowledge(user, wanted) : undefined
    const updated = await this.#rows.updateAssistant(user.id, id, {
      fields,
      ...(knowledge ? { knowledge } : {}),
      now: this.#now(),
    })
    if (!updated) throw new AssistantNotFound()
    const record = refuseMissing(updated)
    // After the assistant's own fields, which are the ones that can still be refused (a document).
    if (Object.keys(publishing).length > 0) await this.#publishing.apply(user.id, id, publishing)
    return this.#dto(user, record)
  }

  async remove(user: Owner, id: string): Promise<void> {
    if (!(await this.#rows.deleteAssistant(user.id, id))) throw new AssistantNotFound()
  }

  /** The assistant a new conversation is with: its id and name, or 404 when it is not theirs. */
  async forConversation(user: Owner, id: string): Promise<{ id: string; name: string }> {
    const record = await this.#rows.findAssistant(user.id, id)
    if (!record) throw new AssistantNotFound()
    return { id: record.id, name: record.name }
  }

  /**
   * What answering needs of the assistant, its knowledge resolved now: the chosen documents and
   * whatever its Drive folders hold at this moment. A deleted one (no row) answers with
   * DELETED_ASSISTANT_REPLY and reads nothing.
   */
  async answerSettings(userId: string, id: string): Promise<AnswerSettings> {
    const record = await this.#rows.findAssistant(userId, id)
    if (!record) return DELETED_SETTINGS
    const inFolders =
      record.folderIds.length > 0 ? await this.#folders.documentIdsIn(userId, record.folderIds) : []
    return {
      knowledge: [...new Set([...record.documents.map((d) => d.id), ...inFolders])],
      instructions: record.instructions,
      policy: record.answerPolicy,
      fallback: record.fallbackAnswer,
      temperature: record.temperature,
      maxTokens: record.maxAnswerTokens,
      // A model the operator has since taken off LLM_MODELS gives way to the default.
      model: record.model !== null && this.#models.includes(record.model) ? record.model : null,
    }
  }

  #checkedModel(model: string | null): string | null {
    if (model !== null && !this.#models.includes(model)) throw new ModelNotOffered(model, this.#models)
    return model
  }

  /** Distinct ids in the order given; a folder the person's Drive never showed is refused naming it. */
  async #checkedKnowledge(user: Owner, knowledge: KnowledgeRequest): Promise<KnowledgeIds> {
    const documentIds = [...new Set(knowledge.documentIds.map((id) => id.toLowerCase()))]
    const folderIds = [...new Set(knowledge.folderIds)]
    if (folderIds.length > 0) {
      const [unknown] = await this.#folders.unknown(user.id, folderIds)
      if (unknown !== undefined) throw new FolderNotInDrive(unknown)
    }
    return { documentIds, folderIds }
  }

  async #dto(user: Owner, record: AssistantRecord): Promise<Assistant> {
    const [folders, publishing] = await Promise.all([
      record.folderIds.length > 0 ? this.#folders.describe(user.id, record.folderIds) : [],
      this.#publishing.view(user.id, record.id),
    ])
    return {
      ...publishing,
      _id: record.id,
      name: record.name,
      description: record.description,
      instructions: record.instructions,
      knowledge: {
        documentIds: record.documents.map((d) => d.id),
        folderIds: record.folderIds,
        documents: record.documents.map((d) => ({ id: d.id, name: d.name })),
        folders: folders.map((f) => ({
          id: f.id,
          name: f.name,
          missing: f.missing,
          documentCount: f.documentCount,
        })),
      },
      starterQuestions: record.starterQuestions,
      answerPolicy: record.answerPolicy,
      fallbackAnswer: record.fallbackAnswer,
      temperature: record.temperature,
      maxAnswerTokens: record.maxAnswerTokens,
      model: record.model,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
    }
  }
}
