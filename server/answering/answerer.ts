/**
 * The assistant behind `send` and the streamed send: retrieve the user's own passages, then either
 * ask the configured language model or, with none configured, answer extractively. Either way the
 * answer records the passages it used, each with the number the model cited it by.
 *
 * A model's answer is bounded twice (D84): the model is asked for at most LLM_MAX_TOKENS, and
 * whatever it sends, no more than ANSWER_CHARS_PER_TOKEN characters a token are kept. An answer
 * cut either way ends with CUT_NOTE, so the person knows there was more.
 */

import type { AnswerPolicy } from '#contracts/assistants.ts'
import type { Correction } from '../db/schema.ts'
import { questionLanguage } from '../documents/index/languages.ts'
import type { Passage, Turn } from '../documents/index/passages.ts'
import type { PassageSearch } from '../documents/index/search-terms.ts'
import { CUT_NOTE, capped, codePointsUpTo } from './answer-cap.ts'
import { type CheckedAnswer, checkedAnswer, quotedChecks, quotedIn } from './answer-checks.ts'
import {
  ANSWER_CHARS_PER_TOKEN,
  type Answer,
  type Answerer,
  type AnswerSettings,
  EMPTY_SCOPE_ANSWER,
  type Found,
  PASSAGES_PER_ANSWER,
  type Question,
  type ReadWhole,
  type Scope,
  type Search,
  type StageTimer,
} from './answer-shapes.ts'
import { type CallerRequest, callOptions } from './call-options.ts'
import type { CitationCheck } from './citation-checks/types.ts'
import { type JudgedAnswer, judgedAnswer } from './citation-judge.ts'
import { citedOnly, citedOrAll, numbered, type UsedPassage, uncited } from './cited-passages.ts'
import { type Analyse, extractiveAnswer } from './extractive.ts'
import { type Llm, LlmAbortedError } from './llm.ts'
import { buildPrompt, type ChatPromptMessage } from './prompt.ts'
import { searchQuery, standsAlone } from './query-rewrite.ts'
import { addedUsage, estimatedUsage, type TokenUsage } from './token-usage.ts'

/** `work`, reporting its duration as `stage` to `timer` when it succeeds. */
export async function timed<T>(
  timer: StageTimer | undefined,
  stage: string,
  work: PromiseLike<T>,
): Promise<T> {
  const started = performance.now()
  const value = await work
  timer?.(stage, performance.now() - started)
  return value
}

/** What an answerer is made of. */
type Parts = {
  search: Search
  /** Whole-document mode (D71); null: a scope always gets ranked passages. */
  readWhole: ReadWhole | null
  llm: Llm | null
  /** How the extractive answer (no model) analyses sentences in their languages. */
  analyse: Analyse
  /** This server has Google Drive (a Google OAuth client): the extractive answer may point to it. */
  drive?: boolean
  /** CITATION_JUDGE=model: the model judges what the check could not vouch for (D140). */
  citationJudge?: boolean
}

/**
 * What retrieval found for a question within `scope` (D70), and the earlier turns (read
 * meanwhile). A scope whose documents fit whole gives them whole (D71), and the question needs
 * no rewrite: nothing is ranked, unless whether anything matches must be known (`judge`: an
 * assistant answering only from its documents, or no model to say which words to quote by).
 */
async function gather(
  { search, readWhole, llm }: Parts,
  { userId, question, history, signal }: Question,
  { scope, chosen, judge }: Plan,
  timer: StageTimer | undefined,
  spent: Spent,
): Promise<{ found: Found; turns: Turn[] }> {
  const options = { chosen, judge }
  if (scope !== null && readWhole) {
    const [whole, turns] = await Promise.all([timed(timer, 'retrieve', readWhole(userId, scope)), history])
    stopIfAborted(signal)
    if (whole) {
      const language = llm ? await questionLanguage(question) : null
      if (llm && language && !judge)
        return { found: { corrections: [], terms: [], language, passages: whole }, turns }
      const query = await searched(llm, question, turns, language, signal, timer, spent)
      const searchedFor = await search(userId, query, PASSAGES_PER_ANSWER, scope, options)
      return { found: { ...searchedFor, passages: whole }, turns }
    }
  }
  const language = llm ? await questionLanguage(question) : null
  if (!llm || !language || standsAlone(question, language)) {
    const [found, turns] = await Promise.all([
      timed(timer, 'retrieve', search(userId, question, PASSAGES_PER_ANSWER, scope, options)),
      history,
    ])
    stopIfAborted(signal)
    return { found, turns }
  }
  const turns = await history
  stopIfAborted(signal)
  const query = await searched(llm, question, turns, language, signal, timer, spent)
  const found = await timed(timer, 'retrieve', search(userId, query, PASSAGES_PER_ANSWER, scope, options))
  stopIfAborted(signal)
  return { found, turns }
}

/** What to search for: a follow-up rewritten to stand alone by the model, else the question. */
async function searched(
  llm: Llm | null,
  question: string,
  turns: Turn[],
  language: string | null,
  signal: AbortSignal | undefined,
  timer: StageTimer | undefined,
  spent: Spent,
): Promise<string> {
  if (!llm || !language || standsAlone(question, language)) return question
  const heard = (usage: TokenUsage) => {
    spent.rewrite = usage
  }
  return timed(timer, 'rewrite', searchQuery(llm, question, turns, language, signal, heard))
}

/**
 * What is searched and how the answer is made, from the conversation's scope and its
 * assistant's settings; an answer fixed without searching (a scope emptied, an assistant with
 * nothing to read under 'documents-only') instead.
 */
async function plan(input: Question): Promise<Plan | Answer> {
  const [own, settings] = await Promise.all([input.scope, input.settings])
  const scope = own ?? null
  if (scope?.length === 0) return EMPTY_SCOPE_ANSWER
  if (!settings) return { scope, chosen: true, judge: false, settings: null }
  const knowledge = new Set(settings.knowledge)
  const within = scope === null ? [...knowledge] : scope.filter((id) => knowledge.has(id))
  const onlyDocuments = settings.policy === 'documents-only'
  if (within.length === 0 && onlyDocuments) return fallbackAnswer(settings)
  return { scope: within, chosen: scope !== null, judge: onlyDocuments, settings }
}

/** The quoted sentences, when no model answers. */
async function extractive(analyse: Analyse, found: Found, scope: Scope, drive: boolean): Promise<Answer> {
  const { content, used, quoted } = await extractiveAnswer(found.passages, found.terms, analyse, {
    scoped: scope !== null,
    drive,
  })
  const checks = quotedChecks(quoted, used)
  return { content, sources: used.map(uncited), corrections: found.corrections, checks }
}

/** What is known before the model is asked: a fixed answer, or the prompt and its passages. */
async function prepare(parts: Parts, input: Question, timer?: StageTimer): Promise<Answer | Prepared> {
  const planned = await plan(input)
  if ('content' in planned) return planned
  const spent: Spent = { rewrite: null }
  const { found, turns } = await gather(parts, input, planned, timer, spent)
  const { settings } = planned
  if (settings?.policy === 'documents-only' && !isMatched(found)) {
    const usage = spent.rewrite ? { usage: spent.rewrite } : {}
    return { ...fallbackAnswer(settings), corrections: found.corrections, ...usage }
  }
  if (!parts.llm) return extractive(parts.analyse, found, planned.scope, parts.drive ?? true)
  const prompt = buildPrompt(input.question, found.passages, turns, {
    scoped: planned.chosen && planned.scope !== null,
    ...(settings ? { assistant: { instructions: settings.instructions, policy: settings.policy } } : {}),
    ...(input.caller ? { callerInstructions: input.caller.instructions } : {}),
  })
  return { prompt, found, settings, rewrite: spent.rewrite }
}

export function createAnswerer({
  search,
  readWhole = null,
  llm,
  analyse,
  drive = true,
  citationJudge = false,
}: Omit<Parts, 'readWhole'> & { readWhole?: ReadWhole | null }): Answerer {
  const parts: Parts = { search, readWhole, llm, analyse, drive }
  const judge = citationJudge ? llm : null
  return {
    async answer(input) {
      const prepared = await prepare(parts, input)
      if ('content' in prepared || !llm) return prepared as Answer
      const { prompt, found, settings, rewrite } = prepared
      const options = callOptions(settings, input.caller, llm.maxTokens)
      const maxTokens = options.maxTokens ?? llm.maxTokens
      const done = await llm.complete(prompt, { signal: input.signal, ...options })
      const { text, cut } = done
      const cap = maxTokens * ANSWER_CHARS_PER_TOKEN
      const kept = text.length > cap ? codePointsUpTo(text, cap) : text
      const written = cut || kept !== text ? `${kept}${CUT_NOTE}` : kept
      const checked = checkedAnswer(written, checkContext(input, found), (content) =>
        citedOrAll(content, found.passages),
      )
      const judged = await judgedAnswer(judge, checked, texts(found), input.signal)
      const usage = addedUsage(
        addedUsage(done.usage ?? estimatedUsage(prompt, text), rewrite),
        judged.judgeUsage,
      )
      return { ...judged, corrections: found.corrections, usage }
    },

    async draft(input, timer) {
      const prepared = await prepare(parts, input, timer)
      if ('content' in prepared || !llm) {
        const { content, sources, corrections, checks, usage } = prepared as Answer
        return {
          candidates: () => sources,
          // One event per paragraph: the UI has one path whether or not a model answers.
          async *tokens() {
            const parts = content.split(/(?<=\n\n)/)
            for (const part of parts) yield part
          },
          sourcesFor: () => sources,
          // A stopped answer keeps the quotations that arrived, and their passages.
          finish: (text) => ({ content: text, ...quotedIn(text, sources, checks), checkMs: 0 }),
          corrections,
          // A fixed answer asked no model, unless a follow-up was rewritten before it.
          spent: () => usage ?? null,
          rewriteSpent: usage ?? null,
        }
      }
      const { prompt, found, settings, rewrite } = prepared
      const { passages, corrections } = found
      const model = llm
      const options = callOptions(settings, input.caller, model.maxTokens)
      const cap = (options.maxTokens ?? model.maxTokens) * ANSWER_CHARS_PER_TOKEN
      return {
        candidates: () => numbered(passages),
        tokens: (signal) => capped(model.stream(prompt, { signal, ...options }), cap),
        sourcesFor: (content) => citedOrAll(content, passages),
        finish: (content, stopped = false) =>
          checkedAnswer(content, checkContext(input, found), (moved) =>
            stopped ? citedOnly(moved, passages) : citedOrAll(moved, passages),
          ),
        judge: (finished, signal) => judgedAnswer(judge, finished, texts(found), signal),
        corrections,
        spent: (content) => addedUsage(estimatedUsage(prompt, content), rewrite),
        rewriteSpent: rewrite,
      }
    },
  }
}

/** Where the follow-up's rewrite leaves what it cost (D134), for the answer's usage. */
type Spent = { rewrite: TokenUsage | null }
/** What the model is asked, with what it was given to ask, and what the follow-up's rewrite cost. */
type Prepared = { prompt: ChatPromptMessage[]; found: Found; settings: AnswerSettings | null } & Spent

/** How a conversation is answered: what is searched, whether it was chosen, whether a match is needed. */
type Plan = { scope: Scope; chosen: boolean; judge: boolean; settings: AnswerSettings | null }

/** The assistant's own sentence when its documents hold nothing for the question (no model asked). */
function fallbackAnswer(settings: AnswerSettings): Answer {
  return { content: settings.fallback, sources: [], corrections: [], checks: [] }
}

/** What the check reads: the question, its language (D82) and the passages in the prompt. */
const checkContext = (input: Question, found: Found) => ({
  question: input.question,
  language: found.language,
  passages: found.passages,
})

const texts = (found: Found) => found.passages.map((p) => p.text)

const isMatched = (found: Found) => found.matched ?? found.passages.some((p) => !p.whole)

function stopIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new LlmAbortedError()
}
