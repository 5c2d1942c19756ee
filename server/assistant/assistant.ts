/**
 * The assistant behind `send`: retrieve the user's own passages, then either ask the configured
 * language model or, with none configured, answer extractively. Either way the answer records
 * the passages it used.
 */
import { extractiveAnswer } from './extractive.ts'
import type { Llm } from './llm.ts'
import type { Passage, Turn } from './passages.ts'
import { buildPrompt } from './prompt.ts'
import { searchQuery } from './query-rewrite.ts'

/** The most passages in a prompt (and so in an answer's sources); RETRIEVAL_TOKEN_BUDGET usually stops earlier. */
export const PASSAGES_PER_ANSWER = 10

export type Retrieve = (userId: string, question: string, limit: number) => Promise<Passage[]>

export type Answer = { content: string; sources: Passage[] }

export type Assistant = {
  answer(input: { userId: string; question: string; history: Turn[] }): Promise<Answer>
}

export function createAssistant({ retrieve, llm }: { retrieve: Retrieve; llm: Llm | null }): Assistant {
  return {
    async answer({ userId, question, history }) {
      const query = await searchQuery(llm, question, history)
      const passages = await retrieve(userId, query, PASSAGES_PER_ANSWER)
      if (!llm) {
        const { content, used } = extractiveAnswer(question, passages)
        return { content, sources: used }
      }
      const content = await llm.complete(buildPrompt(question, passages, history))
      return { content, sources: citedOrAll(content, passages) }
    },
  }
}

/** The passages the model cited as [n]; all it was given when it cited none. */
function citedOrAll(content: string, passages: Passage[]): Passage[] {
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]) - 1))
  const picked = passages.filter((_, i) => cited.has(i))
  return picked.length > 0 ? picked : passages
}
