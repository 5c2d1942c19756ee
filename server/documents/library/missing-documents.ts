/**
 * Chosen library documents that turned out not to be the person's, inside a transaction that
 * stores them (a conversation's scope, D70; an assistant's knowledge, D113): the repository throws
 * `DocumentsMissing` to roll the transaction back, and `refusedAsMissing` answers it as a value,
 * so nothing is stored and the service can name the first missing id.
 */

/** Chosen document ids that are not (or no longer) in the person's library: nothing was stored. */
export type MissingDocuments = { missing: string[] }

/** Thrown inside a transaction to roll it back; answered as `MissingDocuments`. */
export class DocumentsMissing extends Error {
  readonly missing: string[]
  constructor(missing: string[]) {
    super(`Not in the library: ${missing.join(', ')}`)
    this.missing = missing
  }
}

/** `work`'s result, or `MissingDocuments` when it threw `DocumentsMissing` (rolled back). */
export async function refusedAsMissing<T>(work: () => Promise<T>): Promise<T | MissingDocuments> {
  try {
    return await work()
  } catch (error) {
    // Drizzle may wrap what the transaction threw.
    const refused = error instanceof DocumentsMissing ? error : (error as { cause?: unknown }).cause
    if (refused instanceof DocumentsMissing) return { missing: refused.missing }
    throw error
  }
}
