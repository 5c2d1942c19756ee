/**
 * What the document viewer reads besides the library row (library-repository.ts): the passages'
 * document named by its own id, one document's passages in reading order, and an upload's bytes.
 * Every read is scoped to the owner.
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { documentChunks, documents } from '../../db/schema.ts'

export type DocumentViewRepository = ReturnType<typeof createDocumentViewRepository>

export function createDocumentViewRepository(db: Db) {
  return {
    /** The (source, external id) of the person's passages' document with this id; null for anyone else's. */
    async documentKey(
      userId: string,
      documentId: string,
    ): Promise<{ source: string; externalId: string } | null> {
      const [row] = await db
        .select({ source: documents.source, externalId: documents.externalId })
        .from(documents)
        .where(and(eq(documents.id, documentId), eq(documents.userId, userId)))
      return row ?? null
    },

    /** One document's passages, in reading order. */
    passages(userId: string, key: { source: string; externalId: string }) {
      return db
        .select({
          id: documentChunks.id,
          page: documentChunks.page,
          heading: documentChunks.heading,
          text: documentChunks.text,
        })
        .from(documentChunks)
        .innerJoin(documents, eq(documents.id, documentChunks.documentId))
        .where(
          and(
            eq(documents.userId, userId),
            eq(documents.source, key.source),
            eq(documents.externalId, key.externalId),
            eq(documentChunks.userId, userId),
          ),
        )
        .orderBy(asc(documentChunks.ordinal))
    },

    /** An uploaded file's bytes; null when they are missing. */
  }
}
