/**
 * The assistant behind `send` and the streamed send: retrieve the user's own passages, then either
 * ask the configured language model or, with none configured, answer extractively. Either way the
 * answer records the passages it used, each with the number the model cited it by.
 */

import type { Passage, Turn } from '../documents/passages.ts'
import { extractiveAnswer } from './extractive.ts'
import type { Llm } from './llm.ts'
import { buildPrompt } from './prompt.ts'
import { searchQuery, standsAlone } from './query-rewrite.ts'

/** The most passages in a prompt (and so in an answer's sources); RETRIEVAL_TOKEN_BUDGET usually stops earlier. */
export const PASSAGES_PER_ANSWER = 10

export type Retrieve = (userId: string, question: string, limit: number) => Promise<Passage[]>

/** A passage an answer drew on; `citation` is its [n] in the answer, null when it has none. */
export type UsedPassage = Passage & { citation: number | null }

export type Answer = { content: string; sources: UsedPassage[] }

/**
 * `history` may still be on its way: a question that stands alone is searched at once, while the
 * earlier turns are read (they are needed for the prompt, and for a rewrite of a follow-up).
 */
export type Question = { userId: string; question: string; history: Turn[] | PromiseLike<Turn[]> }

/** Hears how long each stage before the model's answer took (Server-Timing, logs). */
export type StageTimer = (stage: string, ms: number) => void

/**
 * An answer in the making: its text as it comes (`tokens`), then the passages it used, which
 * depend on what it cited.
 */
export type AnswerDraft = {
  tokens(signal?: AbortSignal): AsyncIterable<string>
  sourcesFor(content: string): UsedPassage[]
}

export type Assistant = {
  answer(input: Question): Promise<Answer>
  draft(input: Question, timer?: StageTimer): Promise<AnswerDraft>
}

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

export function createAssistant({ retrieve, llm }: { retrieve: Retrieve; llm: Llm | null }): Assistant {
  /** The passages for a question, and the earlier turns (read meanwhile). */
  async function gather({ userId, question, history }: Question, timer?: StageTimer) {
    if (!llm || standsAlone(question)) {
      const [passages, turns] = await Promise.all([
        timed(timer, 'retrieve', retrieve(userId, question, PASSAGES_PER_ANSWER)),
        history,
      ])
      return { passages, turns }
    }
    const turns = await history
    const query = await timed(timer, 'rewrite', searchQuery(llm, question, turns))
    const passages = await timed(timer, 'retrieve', retrieve(userId, query, PASSAGES_PER_ANSWER))
    return { passages, turns }
  }

  return {
    async answer(input) {
      const { passages, turns } = await gather(input)
      if (!llm) {
        const { content, used } = extractiveAnswer(input.question, passages)
        return { content, sources: used.map(uncited) }
      }
      const content = await llm.complete(buildPrompt(input.question, passages, turns))
      return { content, sources: citedOrAll(content, passages) }
    },

    async draft(input, timer) {
      const { passages, turns } = await gather(input, timer)
      if (!llm) {
        const { content, used } = extractiveAnswer(input.question, passages)
        return {
          // One event per paragraph: the UI has one path whether or not a model answers.
          async *tokens() {
            const parts = content.split(/(?<=\n\n)/)
            for (const part of parts) yield part
          },
          sourcesFor: () => used.map(uncited),
        }
      }
      const prompt = buildPrompt(input.question, passages, turns)
      return {
        tokens: (signal) => llm.stream(prompt, signal),
        sourcesFor: (content) => citedOrAll(content, passages),
      }
    },
  }
}

function uncited(p: Passage): UsedPassage {
  return { ...p, citation: null }
}

/**
 * The passages the model cited as [n], each keeping its n; all it was given when it cited none.
 * A marker that points at no passage names nothing and is left out.
 */
export function citedOrAll(content: string, passages: Passage[]): UsedPassage[] {
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
  const numbered = passages.map((p, i) => ({ ...p, citation: i + 1 }))
  const picked = numbered.filter((p) => cited.has(p.citation))
  return picked.length > 0 ? picked : numbered
}
