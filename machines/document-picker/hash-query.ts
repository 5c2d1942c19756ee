/**
 * The `#` the composer's picker follows (D70): a `#` at the start of the text or after a space,
 * then the characters typed after it up to the caret (no space: the query is one word of a
 * document's name). Pure text rules, for the composer and its tests.
 */

/** The `#…` being typed at the caret: where its `#` is and what follows it; null when there is none. */
export function hashQueryAt(text: string, caret: number): { at: number; query: string } | null {
  const before = text.slice(0, caret)
  const match = /(?:^|\s)#([^\s#]*)$/.exec(before)
  if (!match) return null
  const query = match[1] ?? ''
  return { at: before.length - query.length - 1, query }
}

/** `text` without the `#query` at `at` (the chosen document becomes a chip instead). */
export function withoutHashQuery(text: string, at: number, query: string): string {
  const rest = text.slice(at + 1 + query.length)
  const head = text.slice(0, at)
  // "ask #rep about x" → "ask about x", not "ask  about x".
  return head.endsWith(' ') && rest.startsWith(' ') ? head + rest.slice(1) : head + rest
}
