/**
 * Splits a document into passages for retrieval: about CHUNK_TARGET_CHARS each, cut at paragraph
 * then sentence boundaries, never across a page, each remembering its page (PDFs) and, in
 * markdown (markdown files, Google Docs exported as markdown), the nearest heading above it, so
 * an answer can say where it read something. Only real structure is a heading: a `#` line inside
 * a fenced code block (a shell comment), in plain text or in a PDF's text is body text.
 */

export const CHUNK_TARGET_CHARS = 800
export const CHUNK_MAX_CHARS = 1200

/**
 * A page of a PDF, or the whole text of a document without pages. A reader that knows the
 * document's own paragraphs and which of them are headings (a Word file's heading styles) passes
 * them as `paragraphs`, and the chunker uses those instead of splitting `text`.
 */
export type Section = { text: string; page: number | null; paragraphs?: readonly Paragraph[] }

export type Chunk = { ordinal: number; text: string; page: number | null; heading: string | null }

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/

export type ChunkOptions = {
  /** Read `# …` lines outside code fences as headings. */
  markdown: boolean
  /** Stop after this many passages (a bounded document needs no more: document-bounds.ts). */
  limit?: number
}

export function chunkDocument(sections: Section[], options: ChunkOptions = { markdown: false }): Chunk[] {
  const chunks: Chunk[] = []
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  let heading: string | null = null
  for (const section of sections) {
    if (chunks.length >= limit) break
    let buffer = ''
    let bufferHeading = heading
    const flush = () => {
      const text = buffer.trim()
      if (text && chunks.length < limit)
        chunks.push({ ordinal: chunks.length, text, page: section.page, heading: bufferHeading })
      buffer = ''
      bufferHeading = heading
    }
    for (const paragraph of section.paragraphs ?? paragraphsOf(section.text, options.markdown)) {
      if (chunks.length >= limit) break
      if (paragraph.heading !== null) {
        // A heading starts a new passage so the passage and its heading belong together.
        flush()
        heading = paragraph.heading
        bufferHeading = heading
      }
      for (const piece of pieces(paragraph.text)) {
        if (buffer && buffer.length + piece.length + 2 > CHUNK_TARGET_CHARS) flush()
        buffer = buffer ? `${buffer}\n\n${piece}` : piece
      }
    }
    flush()
  }
  return chunks
}

/** A paragraph of body text (heading null), or a heading line that carries its heading. */
export type Paragraph = { text: string; heading: string | null }

/** An opening or closing code fence: three or more backticks or tildes, indented at most 3. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * Paragraphs (split at blank lines; a fenced code block stays one paragraph), and, in markdown,
 * each heading line outside code fences as a paragraph of its own that carries the heading.
 */
export function paragraphsOf(text: string, markdown: boolean): Paragraph[] {
  const out: Paragraph[] = []
  let lines: string[] = []
  const push = () => {
    const joined = lines
      .join('\n')
      .replace(/[ \t]+/g, ' ')
      .trim()
    if (joined) out.push({ text: joined, heading: null })
    lines = []
  }
  let fence: string | null = null
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const marker = markdown ? FENCE.exec(line)?.[1] : undefined
    if (fence !== null) {
      lines.push(line)
      if (
        marker !== undefined &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        line.trim() === marker
      )
        fence = null
      continue
    }
    if (marker) {
      fence = marker
      lines.push(line)
      continue
    }
    const heading = markdown ? HEADING.exec(line.trim())?.[1] : undefined
    if (heading) {
      push()
      out.push({ text: line.trim(), heading })
    } else if (line.trim() === '') push()
    else lines.push(line)
  }
  push()
  return out
}

/** A paragraph longer than a chunk is cut at sentences, and a sentence longer still, hard. */
function pieces(paragraph: string): string[] {
  if (paragraph.length <= CHUNK_MAX_CHARS) return [paragraph]
  const out: string[] = []
  let current = ''
  for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
    if (current && current.length + sentence.length + 1 > CHUNK_TARGET_CHARS) {
      out.push(current)
      current = ''
    }
    current = current ? `${current} ${sentence}` : sentence
    while (current.length > CHUNK_MAX_CHARS) {
      out.push(current.slice(0, CHUNK_TARGET_CHARS))
      current = current.slice(CHUNK_TARGET_CHARS)
    }
  }
  if (current) out.push(current)
  return out
}
