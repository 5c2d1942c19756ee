/**
 * Assistants and their knowledge (issue 36, D113). Every read and write names the owner
 * (`user_id`), so another person's assistant behaves exactly like a missing one; chosen documents
 * are inserted from the person's own library rows, so an id that is not theirs inserts nothing
 * and is answered as missing (the whole write rolls back).
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { AnswerPolicy } from '#contracts/assistants.ts'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { assistantDocuments, assistantFolders, assistants, chatConversations } from '../db/schema.ts'
import {
  DocumentsMissing,
  type MissingDocuments,
  refusedAsMissing,
} from '../documents/library/missing-documents.ts'

export type { MissingDocuments }

/** The fields a person sets (knowledge apart). */
export type AssistantFields = {
  name: string
  description: string
  instructions: string
  starterQuestions: string[]
  answerPolicy: AnswerPolicy
  fallbackAnswer: string
  temperature: number | null
  maxAnswerTokens: number | null
  model: string | null
}

export type AssistantRecord = AssistantFields & {
  id: string
  /** The chosen documents still in the library, in the order chosen. */
  documents: { id: string; name: string }[]
  folderIds: string[]
  createdAt: Date
  updatedAt: Date
}

export type AssistantSummaryRow = Pick<AssistantRecord, 'id' | 'name' | 'description' | 'answerPolicy'> & {
  updatedAt: Date
  documentCount: number
  folderCount: number
}

/** Knowledge to store: distinct ids, in the order chosen. */
export type KnowledgeIds = { documentIds: readonly string[]; folderIds: readonly string[] }

const own = (userId: string, id: string) => and(eq(assistants.id, id), eq(assistants.userId, userId))

const fieldColumns = {
  id: assistants.id,
  name: assistants.name,
  description: assistants.description,
  instructions: assistants.instructions,
  starterQuestions: assistants.starterQuestions,
  answerPolicy: assistants.answerPolicy,
  fallbackAnswer: assistants.fallbackAnswer,
  temperature: assistants.temperature,
  maxAnswerTokens: assistants.maxAnswerTokens,
  model: assistants.model,
  createdAt: assistants.createdAt,
  updatedAt: assistants.updatedAt,
}

/** Takes the person's assistants one writer at a time, so two creates cannot both take the last place. */
async function lockPerson(tx: Db, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`assistants:${userId}`}, 0))`)
}

/** Makes `knowledge` the assistant's, within `tx`; throws DocumentsMissing for ids not in the library. */
async function replaceKnowledge(tx: Db, userId: string, assistantId: string, knowledge: KnowledgeIds) {
  await tx.delete(assistantDocuments).where(eq(assistantDocuments.assistantId, assistantId))
  await tx.delete(assistantFolders).where(eq(assistantFolders.assistantId, assistantId))
  const ids = [...knowledge.documentIds]
  if (ids.length > 0) {
    const inserted = await queryRows<{ document_id: string }>(
      tx,
      sql`
      insert into assistant_documents (assistant_id, document_id, user_id, position)
      select ${assistantId}, l.id, l.user_id, array_position(${sql.param(ids)}::uuid[], l.id)
      from library_documents l
      where l.user_id = ${userId} and not l.excluded and l.id = any(${sql.param(ids)}::uuid[])
      returning document_id`,
    )
    const found = new Set(inserted.map((r) => r.document_id))
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length > 0) throw new DocumentsMissing(missing)
  }
  if (knowledge.folderIds.length > 0) {
    await tx
      .insert(assistantFolders)
      .values(knowledge.folderIds.map((folderId, position) => ({ assistantId, folderId, userId, position })))
  }
}

export async function countAssistants(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from assistants where user_id = ${userId}`,
  )
  return Number(row?.n ?? 0)
}

/**
 * A new assistant with its knowledge; 'limit' when the person already has `limit` (counted under
 * a lock on the person), `missing` when a chosen document is not theirs.
 */
export async function createAssistant(
  db: Db,
  input: { userId: string; fields: AssistantFields; knowledge: KnowledgeIds; now: Date; limit: number },
): Promise<AssistantRecord | MissingDocuments | 'limit'> {
  return refusedAsMissing(() =>
    db.transaction(async (tx) => {
      await lockPerson(tx, input.userId)
      if ((await countAssistants(tx, input.userId)) >= input.limit) return 'limit' as const
      const [row] = await tx
        .insert(assistants)
        .values({ ...input.fields, userId: input.userId, createdAt: input.now, updatedAt: input.now })
        .returning({ id: assistants.id })
      if (!row) throw new Error('Inserting an assistant returned no row')
      await replaceKnowledge(tx, input.userId, row.id, input.knowledge)
      const created = await findAssistant(tx, input.userId, row.id)
      if (!created) throw new Error('An assistant just created is gone')
      return created
    }),
  )
}

/** Changes the fields given and, when given, the whole knowledge; null when it is not theirs. */
export async function updateAssistant(
  db: Db,
  userId: string,
  id: string,
  changes: { fields: Partial<AssistantFields>; knowledge?: KnowledgeIds; now: Date },
): Promise<AssistantRecord | MissingDocuments | null> {
  return refusedAsMissing(() =>
    db.transaction(async (tx) => {
      const [touched] = await tx
        .update(assistants)
        .set({ ...changes.fields, updatedAt: changes.now })
        .where(own(userId, id))
        .returning({ id: assistants.id })
      if (!touched) return null
      if (changes.knowledge) await replaceKnowledge(tx, userId, id, changes.knowledge)
      return findAssistant(tx, userId, id)
    }),
  )
}

export async function findAssistant(db: Db, userId: string, id: string): Promise<AssistantRecord | null> {
  const [row] = await db.select(fieldColumns).from(assistants).where(own(userId, id))
  if (!row) return null
  const documents = await queryRows<{ id: string; name: string }>(
    db,
    sql`
    select l.id, l.name from assistant_documents a join library_documents l on l.id = a.document_id
    where a.assistant_id = ${id} and a.user_id = ${userId} and not l.excluded
    order by a.position`,
  )
  const folders = await db
    .select({ folderId: assistantFolders.folderId })
    .from(assistantFolders)
    .where(and(eq(assistantFolders.assistantId, id), eq(assistantFolders.userId, userId)))
    .orderBy(asc(assistantFolders.position))
  return { ...row, documents, folderIds: folders.map((f) => f.folderId) }
}

/** The person's assistants, the most recently edited first, with how much knowledge each has. */
export async function listAssistants(db: Db, userId: string): Promise<AssistantSummaryRow[]> {
  return db
    .select({
      id: assistants.id,
      name: assistants.name,
      description: assistants.description,
      answerPolicy: assistants.answerPolicy,
      updatedAt: assistants.updatedAt,
      documentCount: sql<number>`(
        select count(*) from assistant_documents a join library_documents l on l.id = a.document_id
        where a.assistant_id = assistants.id and not l.excluded
      )`.mapWith(Number),
      folderCount: sql<number>`(
        select count(*) from assistant_folders f where f.assistant_id = assistants.id
      )`.mapWith(Number),
    })
    .from(assistants)
    .where(eq(assistants.userId, userId))
    .orderBy(desc(assistants.updatedAt), desc(assistants.id))
}

/**
 * Deletes it with its knowledge; its conversations stay, keeping its id and, from now on, its
 * last name (D113). False when it is not theirs.
 */
export async function deleteAssistant(db: Db, userId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ name: assistants.name }).from(assistants).where(own(userId, id))
    if (!row) return false
    await tx
      .update(chatConversations)
      .set({ assistantName: row.name })
      .where(and(eq(chatConversations.assistantId, id), eq(chatConversations.userId, userId)))
    await tx.delete(assistants).where(own(userId, id))
    return true
  })
}

export const assistantQueries = {
  countAssistants,
  createAssistant,
  updateAssistant,
  findAssistant,
  listAssistants,
  deleteAssistant,
}

export type AssistantsRepository = ReturnType<typeof createAssistantsRepository>

export function createAssistantsRepository(db: Db) {
  return bindDb(db, assistantQueries)
}
