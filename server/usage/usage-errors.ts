/**
 * What the usage domain refuses (D126), as a domain error (D108): a person whose answers have
 * spent USAGE_TOKENS_PER_DAY today is refused until the next UTC day, with a sentence that says so.
 */
import { TooMany } from '../http/domain-errors.ts'

export const DAILY_TOKENS_SPENT =
  "You have used today's answers: your answers have spent the most tokens one person may use in a day. You can ask again after midnight UTC."

/** Over USAGE_TOKENS_PER_DAY: Retry-After names the next UTC day. */
export class DailyTokensSpent extends TooMany {
  constructor(retryAfterSeconds: number) {
    super(DAILY_TOKENS_SPENT, retryAfterSeconds)
  }
}
