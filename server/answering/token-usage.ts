/**
 * What an answer cost in model tokens (issue 38, D126): what the model reported when it reports
 * usage (a whole answer), else estimated from the characters it read and wrote (a streamed call
 * reports none). Recorded per person and day (server/usage/) and held to USAGE_TOKENS_PER_DAY.
 */

/** A model's token is about four characters of English (the budgets' estimate, D117). */
export const CHARS_PER_TOKEN = 4

export type TokenUsage = { promptTokens: number; completionTokens: number }

/** Tokens for `parts` at CHARS_PER_TOKEN characters each, rounded up. */
export function estimatedTokens(parts: readonly string[]): number {
  const chars = parts.reduce((sum, part) => sum + part.length, 0)
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

/** The estimate for a prompt (its messages' text) and the answer written to it. */
export function estimatedUsage(prompt: readonly { content: string }[], answer: string): TokenUsage {
  return {
    promptTokens: estimatedTokens(prompt.map((m) => m.content)),
    completionTokens: estimatedTokens([answer]),
  }
}

/**
 * What two calls spent together (an answer and the rewrite of its follow-up, D134, or its citation
 * judge, D140); either may be absent.
 */
export function addedUsage(a: TokenUsage, b: TokenUsage | null | undefined): TokenUsage
export function addedUsage(
  a: TokenUsage | null | undefined,
  b: TokenUsage | null | undefined,
): TokenUsage | null
export function addedUsage(
  a: TokenUsage | null | undefined,
  b: TokenUsage | null | undefined,
): TokenUsage | null {
  if (!a) return b ?? null
  if (!b) return a
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  }
}

/** A usage's tokens, prompt and completion together; 0 when absent. */
export function totalTokens(usage: TokenUsage | null | undefined): number {
  return usage ? usage.promptTokens + usage.completionTokens : 0
}
