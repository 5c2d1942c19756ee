/**
 * What an answer is made of and asked with: the shapes the answerer, the chat, publishing and the
 * API share (the answerer itself is answerer.ts), and the few numbers that bound them.
 */

import type { AnswerPolicy } from '#contracts/assistants.ts'
import type { Correction } from '../db/schema.ts'
import type { Passage, Turn } from '../documents/index/passages.ts'
import type { PassageSearch } from '../documents/index/search-terms.ts'
import type { CheckedAnswer } from './answer-checks.ts'
import type { CallerRequest } from './call-options.ts'
import type { CitationCheck } from './citation-checks/types.ts'
import type { JudgedAnswer } from './citation-judge.ts'
import type { UsedPassage } from './cited-passages.ts'
import type { TokenUsage } from './token-usage.ts'

/** The most passages in a prompt (and so in an answer's sources); RETRIEVAL_TOKEN_BUDGET usually stops earlier. */
export const PASSAGES_PER_ANSWER = 10

/**
 * A token is about 4 characters of English text; an answer may average twice that before the
 * characters past LLM_MAX_TOKENS × this are dropped (a model that ignores its limit, or sends
 * whole paragraphs as one "token").
 */
export const ANSWER_CHARS_PER_TOKEN = 8

/**
 * Ranked passages of the user's for a question; with `scope`, of those documents only (D70: a
 * conversation limited to chosen documents). null or absent: the whole library.
 */
export type Retrieve = (
  userId: string,
  question: string,
  limit: number,
  scope?: readonly string[] | null,
) => Promise<Passage[]>

/** The scope's documents whole, in reading order, when they fit their budget; null otherwise (D71). */
export type ReadWhole = (userId: string, scope: readonly string[]) => Promise<Passage[] | null>

/**
 * The documents a conversation searches: null for the whole library, else their ids (empty when
 * every chosen document was deleted since: nothing is searched, and the answer says so).
 */
export type Scope = readonly string[] | null

/** The answer to any question in a conversation whose chosen documents were all deleted. */
export const EMPTY_SCOPE_REPLY =
  'Every document this conversation was limited to has been deleted, so I have nothing to search. ' +
  'Choose documents for it again, or let it search all your documents.'

/** The answer to any question in a conversation whose chosen documents were all deleted: nothing is searched. */
export const EMPTY_SCOPE_ANSWER: Answer = {
  content: EMPTY_SCOPE_REPLY,
  sources: [],
  corrections: [],
  checks: [],
}

/**
 * What retrieval found; `matched`: the keyword search matched a passage of the question's words
 * within the scope (absent: treated as matched when any passage came back). An assistant that
 * answers only from its documents answers with its fallback when nothing matched (D114).
 */
export type Found = PassageSearch & { matched?: boolean }

/**
 * Retrieval with what it searched for: the passages for the prompt, and the question's words it
 * corrected (D83), its languages' lexemes (D82) and its language. `chosen` (default true): the
 * scope is documents the conversation chose, each looked at (D70); false for an assistant's
 * knowledge, which only filters (D114).
 */
export type Search = (
  userId: string,
  question: string,
  limit: number,
  scope?: readonly string[] | null,
  /** `judge`: say in `matched` whether the search found something relevant (relevance.ts), not just any word. */
  options?: { chosen?: boolean; judge?: boolean },
) => Promise<Found>

/**
 * What an assistant (issue 36) brings to an answer; answering knows nothing else of assistants.
 * `knowledge`: the library document ids it may read, resolved when the question is asked (chosen
 * documents and what its Drive folders hold now); a conversation with its own scope searches
 * the two's intersection. `policy` 'documents-only': nothing matched, the answer is `fallback` and
 * no model is asked; the prompt forbids outside knowledge. `instructions` follow the server's
 * rules in the system prompt (prompt.ts). null settings: the server's defaults.
 */
export type AnswerSettings = {
  knowledge: readonly string[]
  instructions: string
  policy: AnswerPolicy
  fallback: string
  temperature: number | null
  maxTokens: number | null
  model: string | null
}

export type { UsedPassage } from './cited-passages.ts'

/**
 * `corrections`: the question's words that are in none of the person's documents, and what was
 * searched instead; `usage`: the model's tokens (reported, or estimated), absent when no model was asked.
 * `checks`: its citations checked (D129); null when the check failed (`checkError`, for the caller to log);
 * with the model judge's verdicts when CITATION_JUDGE=model (D140; its tokens are in `usage`).
 */
export type Answer = {
  content: string
  sources: UsedPassage[]
  corrections: Correction[]
  usage?: TokenUsage
  checks: CitationCheck[] | null
  checkError?: unknown
  checkMs?: number
  /** The model judge's failure (D140), for the caller to log; its verdicts are then absent. */
  judgeError?: unknown
  judgeMs?: number
}

/**
 * `history` may still be on its way: a question that stands alone is searched at once, while the
 * earlier turns are read (they are needed for the prompt, and for a rewrite of a follow-up).
 */
export type Question = {
  userId: string
  question: string
  history: Turn[] | PromiseLike<Turn[]>
  /** Stop: aborting it ends the answer at whatever stage it is (LlmAbortedError). */
  signal?: AbortSignal
  /** What the conversation searches (read alongside the claim, like the history); absent: everything. */
  scope?: Scope | PromiseLike<Scope>
  /** The conversation's assistant, when it has one (read alongside the claim too). */
  settings?: AnswerSettings | null | PromiseLike<AnswerSettings | null>
  /** What a program asked for through the OpenAI-compatible API (D130); absent in the app. */
  caller?: CallerRequest
}

/** Hears how long each stage before the model's answer took (Server-Timing, logs). */
export type StageTimer = (stage: string, ms: number) => void

/**
 * An answer in the making: the passages it may cite, each with its [n], known before it is
 * written (`candidates`); its text as it comes (`tokens`); then the passages it used, which
 * depend on what it cited.
 */
export type AnswerDraft = {
  candidates(): UsedPassage[]
  tokens(signal?: AbortSignal): AsyncIterable<string>
  sourcesFor(content: string): UsedPassage[]
  /**
   * Once the last token is in: the text as stored (a repaired marker moved), its sources and
   * checks (D129). `stopped`: the text is what had arrived, and only the passages it cites are kept.
   */
  finish(content: string, stopped?: boolean): CheckedAnswer<UsedPassage>
  /**
   * After `finish`, before the answer is stored: with CITATION_JUDGE=model, the sentences the
   * check could not vouch for are asked of the model once (D140), bounded by its timeout and
   * `signal`; never throws. Its `judgeUsage` is added to what the answer spent; `judgeError` is logged.
   * Absent on stand-in drafts with nothing to judge; callers call `judgedDraft`, which allows for that.
   */
  judge?(
    finished: CheckedAnswer<UsedPassage>,
    signal?: AbortSignal,
  ): Promise<JudgedAnswer<CheckedAnswer<UsedPassage>>>
  corrections: Correction[]
  /**
   * What writing `content` cost the model, estimated (a stream reports no usage), with the
   * follow-up's rewrite (`rewriteSpent`); null: no model was asked.
   */
  spent(content: string): TokenUsage | null
  /** What rewriting a follow-up into a search cost (D134); null or absent: no rewrite was asked. */
  rewriteSpent?: TokenUsage | null
}

export type Answerer = {
  answer(input: Question): Promise<Answer>
  draft(input: Question, timer?: StageTimer): Promise<AnswerDraft>
}
