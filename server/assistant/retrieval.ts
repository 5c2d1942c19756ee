/**
 * Retrieval for the assistant: the signed-in user's own passages that best answer a question,
 * by PostgreSQL full-text search (websearch_to_tsquery, an OR fallback for natural questions,
 * ts_rank_cd on a pool of candidates). The query and the reasons for it are in
 * DocumentsRepository.search.
 */
import type { Db } from '../db/database.ts'
import { createDocumentsRepository } from '../repositories/documents-repository.ts'
import type { Retrieve } from './assistant.ts'

export function createRetriever(db: Db): Retrieve {
  const documents = createDocumentsRepository(db)
  return (userId, question, limit) => documents.search(userId, question, limit)
}
