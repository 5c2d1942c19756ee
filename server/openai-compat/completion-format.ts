/**
 * An answer in OpenAI's shapes (D130): the whole `chat.completion` with `usage`, or the streamed
 * `chat.completion.chunk` events ending in `data: [DONE]`; both carry `citations` (on the last
 * chunk when streamed), DocChat's own field, which standard clients ignore.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  Citation,
  CitationOutcome,
  Usage,
} from '#contracts/openai.ts'
import type { VisitorSnippet } from '../db/schema.ts'

export type Finished = {
  text: string
  finishReason: 'stop' | 'length'
  usage: Usage
  citations: Citation[]
}

/** The outcome a citation shows when several sentences cite it: the one a reader must know first. */
const FIRST_TO_KNOW: readonly CitationOutcome[] = ['unverified', 'repaired', 'checked', 'nothing-to-check']

/**
 * A cited snippet as the API's citation (D135): with its sentences' check folded into one
 * outcome, the items no passage holds, and the marker a repair moved from; no check when the
 * answer was not checked.
 */
export function citationOf({ checks, ...snippet }: VisitorSnippet): Citation {
  const outcomes = new Set(checks?.map((c) => c.outcome))
  const check = FIRST_TO_KNOW.find((outcome) => outcomes.has(outcome))
  if (!checks || check === undefined) return snippet
  const movedFrom = checks.find((c) => c.movedFrom !== undefined)?.movedFrom
  return {
    ...snippet,
    check,
    missing: [...new Set(checks.flatMap((c) => c.missing))],
    ...(movedFrom === undefined ? {} : { movedFrom }),
  }
}

export type CompletionMeta = { id: string; created: number; model: string }

export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  }
}

export function completionBody(meta: CompletionMeta, done: Finished): ChatCompletion {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: done.text },
        finish_reason: done.finishReason,
        logprobs: null,
      },
    ],
    usage: done.usage,
    citations: done.citations,
  }
}

/** One `data:` event of the stream. */
export function sseData(body: unknown): string {
  return `data: ${JSON.stringify(body)}\n\n`
}

export const SSE_DONE = 'data: [DONE]\n\n'

export function deltaChunk(
  meta: CompletionMeta,
  delta: ChatCompletionChunk['choices'][number]['delta'],
): ChatCompletionChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
  }
}

/** The last chunk: the finish reason, the citations, and the usage when asked for (include_usage). */
export function finalChunk(meta: CompletionMeta, done: Finished, includeUsage: boolean): ChatCompletionChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta: {}, finish_reason: done.finishReason, logprobs: null }],
    ...(includeUsage ? { usage: done.usage } : {}),
    citations: done.citations,
  }
}
