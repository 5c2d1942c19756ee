/**
 * A repaired citation's marker moved in the answer's text (issue 39: "the marker is moved
 * there"), so the text, its sources, its exports and the next question's history all name the
 * passage that holds the sentence's items. The markers are counted as the sentences counted them
 * (sentences.ts: MARKER matches outside fenced code, in reading order).
 */
import { FENCE, MARKER } from './sentences.ts'

/** In the answer's marker number `ordinal` (0-based), the number `from` becomes `to`. */
export type MarkerMove = { ordinal: number; from: number; to: number }

/**
 * The answer with the moves made. A move whose marker does not hold `from` (the text counted
 * otherwise than the sentences did) is not made: the check still says where the items are.
 */
export function moveMarkers<M extends MarkerMove>(
  answer: string,
  moves: readonly M[],
): { text: string; moved: M[] } {
  if (moves.length === 0) return { text: answer, moved: [] }
  const byOrdinal = new Map(moves.map((m) => [m.ordinal, m]))
  const moved: M[] = []
  let ordinal = 0
  let fenced = false
  const lines = answer.split('\n').map((line) => {
    if (FENCE.test(line)) {
      fenced = !fenced
      return line
    }
    if (fenced) return line
    return line.replace(MARKER, (marker, list: string) => {
      const move = byOrdinal.get(ordinal++)
      const numbers = list.split(',').map((n) => Number(n.trim()))
      if (!move || !numbers.includes(move.from)) return marker
      moved.push(move)
      const to = [...new Set(numbers.map((n) => (n === move.from ? move.to : n)))]
      return `[${to.join(', ')}]`
    })
  })
  return { text: lines.join('\n'), moved }
}
