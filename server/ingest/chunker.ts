/**
 * Splits a document into passages for retrieval: about CHUNK_TARGET_CHARS each, cut at paragraph
 * then sentence boundaries, never across a page, each remembering its page (PDFs) and the nearest
 * markdown heading above it, so an answer can say where it read something.
 */

export const CHUNK_TARGET_CHARS = 800
export const CHUNK_MAX_CHARS = 1200

/** A page of a PDF, or the whole text of a document without pages. */
export type Section = { text: string; page: number | null }

export type Chunk = { ordinal: number; text: string; page: number | null; heading: string | null }

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/

export function chunkDocument(sections: Section[]): Chunk[] {
  const chunks: Chunk[] = []
  let heading: string | null = null
  for (const section of sections) {
    let buffer = ''
    let bufferHeading = heading
    const flush = () => {
      const text = buffer.trim()
      if (text) chunks.push({ ordinal: chunks.length, text, page: section.page, heading: bufferHeading })
      buffer = ''
      bufferHeading = heading
    }
    for (const paragraph of paragraphs(section.text)) {
      const h = HEADING.exec(paragraph)
      if (h?.[1]) {
        // A heading starts a new passage so the passage and its heading belong together.
        flush()
        heading = h[1]
        bufferHeading = heading
      }
      for (const piece of pieces(paragraph)) {
        if (buffer && buffer.length + piece.length + 2 > CHUNK_TARGET_CHARS) flush()
        buffer = buffer ? `${buffer}\n\n${piece}` : piece
      }
    }
    flush()
  }
  return chunks
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n|\n(?=#{1,6}\s)/)
    .map((p) => p.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
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
