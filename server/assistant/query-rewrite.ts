/**
 * Query understanding for follow-ups: with a model configured and a conversation under way, the
 * model rewrites the question into a standalone search query ("and how do I undo that?" becomes
 * "undo a git commit"), so retrieval finds the passages a follow-up is about. One short call; a
 * failure never fails the send — retrieval then searches the question with the previous one.
 */

import type { Turn } from '../documents/passages.ts'
import type { Llm } from './llm.ts'

/** Turns of the conversation the rewrite sees (the newest), and how much of each. */
const REWRITE_TURNS = 4
const REWRITE_TURN_CHARS = 600
/** A longer "query" is the model answering instead of rewriting: it is cut to this. */
const MAX_QUERY_CHARS = 300
/** The rewrite is given this long (the answer still gets LLM_TIMEOUT_MS of its own). */
export const REWRITE_TIMEOUT_MS = 8000

export const REWRITE_PROMPT = [
  'You turn the last question of a conversation into a standalone search query for the person’s documents.',
  'Resolve pronouns and references ("that", "it", "the second one") from the conversation.',
  'Reply with the query only: no answer, no quotes, no explanation, at most 20 words.',
].join(' ')

/**
 * What retrieval searches for: the question alone when there is no model or no earlier turn;
 * otherwise the question followed by the model's standalone rewrite (the question's own words
 * stay, so a rewrite that drifts cannot lose them), or, if the model fails, by the last question
 * the person asked before.
 */
export async function searchQuery(llm: Llm | null, question: string, history: Turn[]): Promise<string> {
  if (!llm || history.length === 0) return question
  const recent = history
    .slice(-REWRITE_TURNS)
    .map((t) => `${t.isUser ? 'Person' : 'Assistant'}: ${t.content.slice(0, REWRITE_TURN_CHARS)}`)
    .join('\n')
  try {
    let timer: NodeJS.Timeout | undefined
    const rewritten = await Promise.race([
      llm.complete([
        { role: 'system', content: REWRITE_PROMPT },
        { role: 'user', content: `Conversation:\n${recent}\n\nLast question: ${question}` },
      ]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('The rewrite took too long')), REWRITE_TIMEOUT_MS)
      }),
    ]).finally(() => clearTimeout(timer))
    return `${question}\n${rewritten.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS)}`
  } catch {
    const previous = [...history].reverse().find((t) => t.isUser)
    return previous ? `${question}\n${previous.content.slice(0, REWRITE_TURN_CHARS)}` : question
  }
}
