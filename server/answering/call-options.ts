/**
 * What one model call is asked for: an assistant's model settings, then what a program asked for
 * through the OpenAI-compatible API (D130); the server's defaults where neither says.
 */
import type { CallOptions } from './llm.ts'

/**
 * A program's own wishes (the OpenAI-compatible API, D130): its system messages follow the
 * server's rules and the assistant's instructions, never replace them; its temperature replaces
 * the assistant's; its token limit only lowers the assistant's or the server's.
 */
export type CallerRequest = { instructions: string; temperature?: number; maxTokens?: number }

/** An assistant's own model settings (AnswerSettings' part of them); null: the server's. */
type ModelSettings = { maxTokens: number | null; temperature: number | null; model: string | null }

/**
 * The assistant's model settings for the call, then a program's (D130: its temperature wins, its
 * token limit only lowers); the server's defaults where neither says.
 */
export function callOptions(
  settings: ModelSettings | null,
  caller: CallerRequest | undefined,
  ceiling: number,
): CallOptions {
  const own: CallOptions = settings
    ? {
        ...(settings.maxTokens === null ? {} : { maxTokens: settings.maxTokens }),
        ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
        ...(settings.model === null ? {} : { model: settings.model }),
      }
    : {}
  if (!caller) return own
  const limit = caller.maxTokens
  return {
    ...own,
    ...(caller.temperature === undefined ? {} : { temperature: caller.temperature }),
    ...(limit === undefined ? {} : { maxTokens: Math.min(limit, own.maxTokens ?? ceiling) }),
  }
}
