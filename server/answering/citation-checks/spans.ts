/** A piece of text an extractor claimed, so the next extractors do not read it again. */
export type Span<T> = { start: number; end: number; value: T }

/** Every match of `pattern` (global) in `text`, mapped by `read`; null results are skipped. */
export function matches<T>(text: string, pattern: RegExp, read: (m: RegExpExecArray) => T | null): Span<T>[] {
  const out: Span<T>[] = []
  for (const m of text.matchAll(pattern)) {
    const value = read(m)
    if (value !== null) out.push({ start: m.index, end: m.index + m[0].length, value })
  }
  return out
}

/** The text with the spans blanked out (same length, so later offsets still hold). */
export function blank(text: string, spans: readonly Span<unknown>[]): string {
  let out = text
  for (const { start, end } of spans) out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end)
  return out
}
