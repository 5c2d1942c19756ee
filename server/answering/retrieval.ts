/**
 * Retrieval for the assistant: the signed-in user's own passages that best answer a question.
 * searchPassages ranks them (BM25 with document-level evidence, per language, tolerant of typos;
 * the query and the reasons for it are there); this picks what goes into the prompt: the best
 * passage of each of the best documents first, more from one document only when it clearly
 * leads, up to a token budget (RETRIEVAL_TOKEN_BUDGET).
 */
import { DEFAULT_RETRIEVAL_TOKEN_BUDGET } from '../config.ts'
import type { Db } from '../db/database.ts'
import { createDocumentsRepository } from '../documents/index/documents-repository.ts'
import type { EmbeddingService } from '../documents/index/embedding-service.ts'
import { searchPassages } from '../documents/index/passage-search.ts'
import type { Passage } from '../documents/index/passages.ts'
import { analyseTexts } from '../documents/index/question-analysis-repository.ts'
import { fuse } from '../documents/index/rank-fusion.ts'
import { vectorSearch } from '../documents/index/vectors-repository.ts'
import type { Found, ReadWhole, Retrieve, Search } from './answer-shapes.ts'
import { bestCoverage, RELEVANT_COVERAGE } from './relevance.ts'

/** How often retrieval asks for a user's passages without vectors to be embedded (background). */
const EMBED_CATCH_UP_MS = 60_000

/** Ranked passages considered for the prompt, per passage asked for. */
const CANDIDATES_PER_PASSAGE = 4
/**
 * Each passage already taken from a document multiplies the score of that document's next ones
 * by this: a second passage of the leading page beats the best passage of a page that scored
 * under half as well, a third needs a lead of four times, and so on.
 */
export const SAME_DOCUMENT_DECAY = 0.5

/** A rough token count (about four characters of English per token), with the passage's label. */
export function passageTokens(p: Pick<Passage, 'text' | 'heading' | 'documentName'>): number {
  return Math.ceil((p.text.length + (p.heading?.length ?? 0) + p.documentName.length + 8) / 4)
}

/**
 * The passages for a prompt from `ranked` (best first): greedily the one whose score, decayed by
 * SAME_DOCUMENT_DECAY per passage already taken from its document, is highest; at most `limit`,
 * and no more than `tokenBudget` tokens together (the best passage always goes in). In the order
 * they were picked, so the prompt's [1] is the best. With `eachDocumentFirst` (a conversation
 * limited to chosen documents, D70) the best passage of every document that has one is taken
 * first, best document first, and only then the rest: each chosen document is looked at.
 */
export function selectPassages(
  ranked: Passage[],
  limit: number,
  tokenBudget: number,
  eachDocumentFirst = false,
): Passage[] {
  const left = [...ranked]
  const taken = new Map<string, number>()
  const picked: Passage[] = []
  let tokens = 0
  const fits = (p: Passage) => picked.length === 0 || tokens + passageTokens(p) <= tokenBudget
  const take = (p: Passage) => {
    left.splice(left.indexOf(p), 1)
    picked.push(p)
    tokens += passageTokens(p)
    taken.set(p.documentId, (taken.get(p.documentId) ?? 0) + 1)
  }
  if (eachDocumentFirst) {
    const bestOfEach = new Map<string, Passage>()
    for (const p of ranked) if (!bestOfEach.has(p.documentId)) bestOfEach.set(p.documentId, p)
    for (const p of bestOfEach.values()) if (picked.length < limit && fits(p)) take(p)
  }
  while (picked.length < limit && left.length > 0) {
    let best: Passage | null = null
    let bestScore = Number.NEGATIVE_INFINITY
    for (const p of left) {
      const score = p.rank * SAME_DOCUMENT_DECAY ** (taken.get(p.documentId) ?? 0)
      if (score > bestScore && fits(p)) {
        best = p
        bestScore = score
      }
    }
    if (!best) break
    take(best)
  }
  return picked
}

export type RetrieverOptions = {
  tokenBudget: number
  /** Hybrid retrieval: vectors fused with the keyword ranking (reciprocal rank fusion). */
  embeddings?: EmbeddingService | null
  /** Where a failed query embedding is reported (retrieval then stays keyword-only). */
  warn?: (message: string) => void
}

/**
 * Retrieval with what it searched for (the assistant's): see the file's docblock. With `scope`,
 * from those documents only (keyword and vector search alike; the owner filter first in both,
 * D70); when the conversation chose them (`chosen`, the default), a chosen document in which
 * nothing matched still shows its first passage, after every passage that matched. An
 * assistant's knowledge (D113) is a scope not chosen: it filters, and ranks as the library does.
 */
export function createSearch(
  db: Db,
  options: RetrieverOptions = { tokenBudget: DEFAULT_RETRIEVAL_TOKEN_BUDGET },
): Search {
  const documents = createDocumentsRepository(db)
  const caughtUp = new Map<string, number>()

  /** The keyword ranking fused with the nearest passages by vector, when embeddings are on. */
  async function fusedWithNearest(
    userId: string,
    question: string,
    wanted: number,
    scope: readonly string[] | null,
    lexical: Passage[],
  ): Promise<Passage[]> {
    const embeddings = options.embeddings
    if (!embeddings || question.trim() === '' || !(await embeddings.ready())) return lexical
    // Passages indexed since the last run get their vectors in the background.
    if (Date.now() - (caughtUp.get(userId) ?? 0) > EMBED_CATCH_UP_MS) {
      caughtUp.set(userId, Date.now())
      void embeddings.schedule(userId)
    }
    let nearest: Passage[] = []
    try {
      const [query] = await embeddings.embedder.embed([question])
      if (query) nearest = await vectorSearch(db, userId, embeddings.embedder.model, query, wanted, scope)
    } catch (error) {
      options.warn?.(`Query embedding failed, keyword retrieval only: ${(error as Error).message}`)
    }
    return nearest.length > 0 ? fuse([lexical, nearest]) : lexical
  }

  return async (
    userId,
    question,
    limit,
    scope = null,
    { chosen = true, judge = false } = {},
  ): Promise<Found> => {
    const wanted = Math.max(limit, 0) * CANDIDATES_PER_PASSAGE
    const lexical = await searchPassages(db, userId, question, wanted, scope)
    const matched =
      lexical.passages.length > 0 &&
      (!judge ||
        (await bestCoverage((items) => analyseTexts(db, items), lexical.passages, lexical.terms)) >=
          RELEVANT_COVERAGE)
    if (limit <= 0 || scope?.length === 0) return { ...lexical, matched }
    const ranked = await fusedWithNearest(userId, question, wanted, scope, lexical.passages)
    // An assistant's knowledge (not chosen by the conversation) only filters: ranked as a library is.
    if (scope === null || !chosen)
      return { ...lexical, matched, passages: selectPassages(ranked, limit, options.tokenBudget) }
    const picked = selectPassages(ranked, limit, options.tokenBudget, true)
    const found = new Set(ranked.map((p) => p.documentId))
    const unmatched = scope.filter((id) => !found.has(id))
    let tokens = picked.reduce((sum, p) => sum + passageTokens(p), 0)
    for (const opening of await documents.openingPassages(userId, unmatched)) {
      if (picked.length >= limit) break
      if (picked.length > 0 && tokens + passageTokens(opening) > options.tokenBudget) continue
      picked.push(opening)
      tokens += passageTokens(opening)
    }
    return { ...lexical, matched, passages: picked }
  }
}

/** The passages alone, for callers that need no more (tests, benchmarks); `scope` as createSearch's. */
export function createRetriever(
  db: Db,
  options: RetrieverOptions = { tokenBudget: DEFAULT_RETRIEVAL_TOKEN_BUDGET },
): Retrieve {
  const search = createSearch(db, options)
  return async (userId, question, limit, scope = null) =>
    limit <= 0 ? [] : (await search(userId, question, limit, scope)).passages
}

/**
 * A conversation's chosen documents whole, in reading order (D71), when together they fit
 * `tokenBudget` (WHOLE_DOCUMENT_TOKEN_BUDGET); null when they do not (ranked passages then).
 */
export function createWholeDocumentReader(db: Db, tokenBudget: number): ReadWhole {
  const documents = createDocumentsRepository(db)
  return async (userId, scope) => {
    const passages = await documents.wholeDocuments(userId, scope, tokenBudget)
    return passages.length > 0 ? passages.map((p) => ({ ...p, whole: true })) : null
  }
}
