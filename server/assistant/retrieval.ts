/**
 * Retrieval for the assistant: the signed-in user's own passages that best answer a question.
 * searchPassages ranks them (BM25 with document-level evidence, per language, tolerant of typos;
 * the query and the reasons for it are there); this picks what goes into the prompt: the best
 * passage of each of the best documents first, more from one document only when it clearly
 * leads, up to a token budget (RETRIEVAL_TOKEN_BUDGET).
 */
import { DEFAULT_RETRIEVAL_TOKEN_BUDGET } from '../config.ts'
import type { Db } from '../db/database.ts'
import { type PassageSearch, searchPassages } from '../documents/passage-search.ts'
import type { Passage } from '../documents/passages.ts'
import type { Retrieve, Search } from './assistant.ts'
import { type EmbeddingService, fuse, vectorSearch } from './embeddings.ts'

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
 * they were picked, so the prompt's [1] is the best.
 */
export function selectPassages(ranked: Passage[], limit: number, tokenBudget: number): Passage[] {
  const left = [...ranked]
  const taken = new Map<string, number>()
  const picked: Passage[] = []
  let tokens = 0
  while (picked.length < limit && left.length > 0) {
    let best = -1
    let bestScore = Number.NEGATIVE_INFINITY
    for (let i = 0; i < left.length; i++) {
      const p = left[i] as Passage
      const score = p.rank * SAME_DOCUMENT_DECAY ** (taken.get(p.documentId) ?? 0)
      if (score > bestScore && (picked.length === 0 || tokens + passageTokens(p) <= tokenBudget)) {
        best = i
        bestScore = score
      }
    }
    if (best < 0) break
    const [p] = left.splice(best, 1) as [Passage]
    picked.push(p)
    tokens += passageTokens(p)
    taken.set(p.documentId, (taken.get(p.documentId) ?? 0) + 1)
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

/** Retrieval with what it searched for (the assistant's): see the file's docblock. */
export function createSearch(
  db: Db,
  options: RetrieverOptions = { tokenBudget: DEFAULT_RETRIEVAL_TOKEN_BUDGET },
): Search {
  const caughtUp = new Map<string, number>()
  return async (userId, question, limit): Promise<PassageSearch> => {
    const wanted = Math.max(limit, 0) * CANDIDATES_PER_PASSAGE
    const lexical = await searchPassages(db, userId, question, wanted)
    if (limit <= 0) return lexical
    const embeddings = options.embeddings
    if (!embeddings || question.trim() === '' || !(await embeddings.ready()))
      return { ...lexical, passages: selectPassages(lexical.passages, limit, options.tokenBudget) }
    // Passages indexed since the last run get their vectors in the background.
    if (Date.now() - (caughtUp.get(userId) ?? 0) > EMBED_CATCH_UP_MS) {
      caughtUp.set(userId, Date.now())
      void embeddings.schedule(userId)
    }
    let nearest: Passage[] = []
    try {
      const [query] = await embeddings.embedder.embed([question])
      if (query) nearest = await vectorSearch(db, userId, embeddings.embedder.model, query, wanted)
    } catch (error) {
      options.warn?.(`Query embedding failed, keyword retrieval only: ${(error as Error).message}`)
    }
    const ranked = nearest.length > 0 ? fuse([lexical.passages, nearest]) : lexical.passages
    return { ...lexical, passages: selectPassages(ranked, limit, options.tokenBudget) }
  }
}

/** The passages alone, for callers that need no more (tests, benchmarks). */
export function createRetriever(
  db: Db,
  options: RetrieverOptions = { tokenBudget: DEFAULT_RETRIEVAL_TOKEN_BUDGET },
): Retrieve {
  const search = createSearch(db, options)
  return async (userId, question, limit) =>
    limit <= 0 ? [] : (await search(userId, question, limit)).passages
}
