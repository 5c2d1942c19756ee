/**
 * An answer's length bound (D84), the streamed half: the model's pieces up to a cap of
 * characters, then CUT_NOTE; reaching the cap ends the model call.
 */
/** Ends an answer that was cut at its length limit: markdown, a paragraph of its own. */
export const CUT_NOTE =
  '\n\n_This answer was cut short: it reached the longest answer allowed here. Ask for the rest, or for a shorter answer._'

/**
 * The model's pieces up to `cap` characters in all, then CUT_NOTE when the model stopped at its
 * token limit or the cap cut it; reaching the cap ends the model call.
 */
export async function* capped(
  pieces: AsyncGenerator<string, { cut: boolean }>,
  cap: number,
): AsyncGenerator<string> {
  let length = 0
  try {
    for (;;) {
      const next = await pieces.next()
      if (next.done) {
        if (next.value.cut) yield CUT_NOTE
        return
      }
      if (length + next.value.length > cap) {
        const head = codePointsUpTo(next.value, cap - length)
        if (head) yield head
        yield CUT_NOTE
        return
      }
      length += next.value.length
      yield next.value
    }
  } finally {
    // Ended early (the cap, or the caller stopped reading): the model call ends too.
    await pieces.return({ cut: false })
  }
}

/** The start of `text`, at most `n` UTF-16 units long, never half of a surrogate pair. */
export function codePointsUpTo(text: string, n: number): string {
  const end = n > 0 && n < text.length && /[\uD800-\uDBFF]/.test(text.charAt(n - 1)) ? n - 1 : n
  return text.slice(0, Math.max(0, end))
}
