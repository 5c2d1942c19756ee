/**
 * The language pass (D82): passages indexed before languages were detected (migration 0018 marks
 * their documents) are detected now and re-indexed in their own language, in the background after
 * start. Each document goes through the document writer (`relabel`): part by part like any large
 * write, in turn with everybody's documents, its progress kept in the document so that a stop
 * resumes where it was. Until its turn a document is searched as before, in English. The
 * detection runs outside any transaction (on PGlite a transaction holds the one connection).
 */
import type { Db } from '../../db/database.ts'
import type { DocumentWriter } from './document-writer.ts'
import { createDocumentsRepository } from './documents-repository.ts'
import { passageLanguages } from './languages.ts'

export type LanguagePassResult = { documents: number; passages: number }

/** Runs until no document is pending or `signal` aborts (between documents); what it re-indexed. */
export async function detectPendingLanguages(
  db: Db,
  writer: DocumentWriter,
  signal?: AbortSignal,
): Promise<LanguagePassResult> {
  const repository = createDocumentsRepository(db)
  const result: LanguagePassResult = { documents: 0, passages: 0 }
  let after: string | null = null
  while (!signal?.aborted) {
    const pending = await repository.nextPendingLanguages(after)
    if (!pending) break
    after = pending.documentId
    const detected = await passageLanguages(pending.chunks)
    const passages = pending.chunks.map((chunk, i) => ({
      ordinal: chunk.ordinal,
      language: detected[i] ?? chunk.language,
    }))
    const changed = passages.filter((p, i) => p.language !== pending.chunks[i]?.language).length
    const written = await writer.relabel(
      pending.key,
      pending.documentId,
      passages.filter((p) => p.ordinal >= pending.from),
    )
    if (written) {
      result.documents++
      result.passages += changed
    }
  }
  return result
}
