/**
 * Where a cited passage stands among a PDF page's text items (pdf.js's text layer renders one
 * element per item). The passage was extracted from the same page by the same library, but the
 * chunker re-flowed its whitespace and joined words hyphenated at a line's end ("docu-" +
 * "ment", issue 40 item 9), so both sides are compared without any whitespace or hyphens (and in
 * NFKC, so a ligature matches its letters). When the whole passage is not found verbatim, its
 * first and last 60 characters bracket it; failing that, its opening alone is marked.
 */
const ANCHOR = 60

const squash = (text: string) => text.normalize('NFKC').replace(/[\s\u00AD\u2010-]+/g, '')

/** The indexes of the items that hold the passage, in order; empty when it is not on the page. */
export function itemsHolding(items: readonly string[], passage: string): number[] {
  let joined = ''
  const owner: number[] = []
  items.forEach((item, index) => {
    const part = squash(item)
    joined += part
    for (let i = 0; i < part.length; i++) owner.push(index)
  })
  const target = squash(passage)
  if (target === '' || joined === '') return []
  let range: [number, number] | null = null
  const whole = joined.indexOf(target)
  if (whole >= 0) range = [whole, whole + target.length]
  else {
    const head = target.slice(0, ANCHOR)
    const tail = target.slice(-ANCHOR)
    const start = joined.indexOf(head)
    if (start >= 0) {
      const end = joined.indexOf(tail, start)
      range = end >= 0 ? [start, end + tail.length] : [start, start + head.length]
    }
  }
  if (!range) return []
  const found = new Set<number>()
  for (let i = range[0]; i < range[1]; i++) {
    const index = owner[i]
    if (index !== undefined) found.add(index)
  }
  return [...found]
}
