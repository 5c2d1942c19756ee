/**
 * Query understanding for follow-ups: with a model configured and a conversation under way, the
 * model rewrites a question that refers back into a standalone search query ("and how do I undo
 * that?" becomes "undo a git commit"), so retrieval finds the passages a follow-up is about. One
 * short call, skipped for a question that stands alone (it comes before the answer's first token);
 * a failure never fails the send — retrieval then searches the question with the previous one.
 */

import type { Turn } from '../documents/passages.ts'
import { type Llm, LlmAbortedError } from './llm.ts'

/** Turns of the conversation the rewrite sees (the newest), and how much of each. */
const REWRITE_TURNS = 4
const REWRITE_TURN_CHARS = 600
/** A longer "query" is the model answering instead of rewriting: it is cut to this. */
const MAX_QUERY_CHARS = 300
/** The rewrite is given this long (the answer still gets LLM_TIMEOUT_MS of its own). */
export const REWRITE_TIMEOUT_MS = 8000
/** A query of at most 20 words needs few tokens; a model that answers instead is cut here (D84). */
export const REWRITE_MAX_TOKENS = 64

export const REWRITE_PROMPT = [
  'You turn the last question of a conversation into a standalone search query for the person’s documents.',
  'Resolve pronouns and references ("that", "it", "the second one") from the conversation.',
  'Reply with the query only: no answer, no quotes, no explanation, at most 20 words.',
].join(' ')

/**
 * Words that point back into the conversation: pronouns and demonstratives ("it", "that"), and
 * words that only mean something after an earlier turn ("previous", "instead", "else").
 * "the" is not among them: "the travel policy" names what it is about.
 */
const REFERS_BACK = new RegExp(
  `\\b(${[
    'it|its|itself|they|them|their|theirs|themselves',
    'this|that|these|those|he|him|his|she|her|hers',
    'there|then|above|previous|previously|earlier|former|latter|same|such',
    'one|ones|another|other|others|else|instead|also|too|again|more|further|so',
  ].join('|')})\\b`,
  'i',
)
/** A question that opens like this continues the last turn ("and for managers?"). */
const CONTINUES = /^\s*(and|but|or|so|also|then|what about|how about|what if|why not|how come|ok|okay)\b/i
/** Shorter than this (in words) a question is an ellipsis ("in 2023?", "how much?"). */
const MIN_STANDALONE_WORDS = 4

/**
 * Whether a question can be searched as asked: long enough, not opening as a continuation and
 * without a word that refers back. When in doubt it does not stand alone: the rewrite costs a
 * short model call, a follow-up searched without its context finds the wrong passages.
 */
export function standsAlone(question: string): boolean {
  const words = question
    .trim()
    .split(/\s+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w))
  if (words.length < MIN_STANDALONE_WORDS) return false
  return !CONTINUES.test(question) && !REFERS_BACK.test(question)
}

/**
 * What retrieval searches for: the question alone when there is no model, no earlier turn, or
 * when it stands alone; otherwise the question followed by the model's standalone rewrite (the
 * question's own words stay, so a rewrite that drifts cannot lose them), or, if the model fails,
 * by the last question the person asked before. Aborting `signal` (Stop) ends the rewrite and
 * throws LlmAbortedError: nothing is searched for an answer nobody waits for.
 */
export async function searchQuery(
  llm: Llm | null,
  question: string,
  history: Turn[],
  signal?: AbortSignal,
): Promise<string> {
  if (!llm || history.length === 0 || standsAlone(question)) return question
  const recent = history
    .slice(-REWRITE_TURNS)
    .map((t) => `${t.isUser ? 'Person' : 'Assistant'}: ${t.content.slice(0, REWRITE_TURN_CHARS)}`)
    .join('\n')
  const timeout = AbortSignal.timeout(REWRITE_TIMEOUT_MS)
  try {
    const { text } = await llm.complete(
      [
        { role: 'system', content: REWRITE_PROMPT },
        { role: 'user', content: `Conversation:\n${recent}\n\nLast question: ${question}` },
      ],
      { maxTokens: REWRITE_MAX_TOKENS, signal: signal ? AbortSignal.any([signal, timeout]) : timeout },
    )
    return `${question}\n${text.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS)}`
  } catch {
    if (signal?.aborted) throw new LlmAbortedError()
    const previous = [...history].reverse().find((t) => t.isUser)
    return previous ? `${question}\n${previous.content.slice(0, REWRITE_TURN_CHARS)}` : question
  }
}
