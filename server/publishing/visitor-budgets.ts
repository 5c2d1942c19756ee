/**
 * Who may have an answer now, for a published assistant's visitors (issue 37): the assistant's
 * answers and tokens a day, the visitor's answers an hour and a day, one answer at a time per
 * visitor, at most PUBLISHED_CONCURRENCY answers at once per assistant, and the owner's own tokens
 * a day (USAGE_TOKENS_PER_DAY, across the app, published assistants and the API). Counted in the
 * database, so every instance sees the same counts and 100 parallel asks at a budget's edge
 * answer exactly as many as it allows.
 */
import type { Budgets } from '../../contracts/publishing.ts'

export type RefusalReason =
  | 'assistant-answers'
  | 'assistant-tokens'
  | 'visitor-hour'
  | 'visitor-day'
  | 'owner-tokens'
  | 'assistant-busy'
  | 'visitor-busy'

export type Admission =
  | {
      kind: 'admitted'
      /** Records what the answer spent and frees its places (call exactly once, also on failure: tokens 0). */
      finish(tokens: number): Promise<void>
    }
  | { kind: 'refused'; reason: RefusalReason; retryAfterSeconds: number }

export type AdmitInput = {
  ownerId: string
  assistantId: string
  /** The visitor's stable key: their anonymous id, or `sub:` and the signed user's id. */
  visitorKey: string
  budgets: Budgets
}

export type VisitorBudgets = { admit(input: AdmitInput): Promise<Admission> }
