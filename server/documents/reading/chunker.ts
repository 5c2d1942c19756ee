/**
 * Splits a document into passages for retrieval: about CHUNK_TARGET_CHARS each, cut at paragraph
 * then sentence boundaries, never across a page, each remembering its page (PDFs) and, in
 * markdown (markdown files, Google Docs exported as markdown), the nearest heading above it, so
 * an answer can say where it read something. Only real structure is a heading: a `#` line inside
 * a fenced code block (a shell comment), in plain text or in a PDF's text is body text.
 */

import { takingTurns } from './turns.ts'

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
  for (const _ of chunking(sections, options, chunks));
  return chunks
}

/**
 * chunkDocument in turns of a few milliseconds: 5 MB of text is 40–170 ms of chunking, and the
 * server's thread answers other people's requests in between (D94).
 */
export async function chunkDocumentInTurns(
  sections: Section[],
  options: ChunkOptions = { markdown: false },
): Promise<Chunk[]> {
  const chunks: Chunk[] = []
  const turns = takingTurns()
  for (const _ of chunking(sections, options, chunks)) await turns.pause()
  return chunks
}

/** Where a passage was made: the section's index and its paragraph's (as paragraphsOf counts them). */
export type PassagePlace = { section: number; paragraph: number }

/**
 * Where the passage past `limit` begins to be made, or null when the sections make no more than
 * `limit` passages. The sections up to it, that section's paragraphs up to that one included, still
 * make more than `limit` passages, and the first `limit` the same as the whole does (passages
 * never look past the paragraph that ends them): a reader keeps only those, and the server, which
 * cuts at the limit, finds the document cut there as it would have (document-bounds.ts).
 */
export function placePastLimit(sections: Section[], limit: number, markdown = false): PassagePlace | null {
  const chunks: Chunk[] = []
  const at: PassagePlace = { section: 0, paragraph: 0 }
  for (const _ of chunking(sections, { markdown, limit: limit + 1 }, chunks, at));
  return chunks.length > limit ? at : null
}

/**
 * Chunks into `chunks`, pausing (yield) after every paragraph and piece of one; `at` follows the
 * paragraph being cut into passages.
 */
function* chunking(
  sections: Section[],
  options: ChunkOptions,
  chunks: Chunk[],
  at: PassagePlace = { section: 0, paragraph: 0 },
): Generator<void> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  let heading: string | null = null
  for (const [index, section] of sections.entries()) {
    if (chunks.length >= limit) break
    at.section = index
    at.paragraph = -1
    let buffer = ''
    let bufferHeading = heading
    const flush = () => {
      const text = buffer.trim()
      if (text && chunks.length < limit)
        chunks.push({ ordinal: chunks.length, text, page: section.page, heading: bufferHeading })
      buffer = ''
      bufferHeading = heading
    }
    for (const paragraph of section.paragraphs ?? paragraphs(section.text, options.markdown)) {
      yield
      if (paragraph === null) continue
      if (chunks.length >= limit) break
      at.paragraph += 1
      if (paragraph.heading !== null) {
        // A heading starts a new passage so the passage and its heading belong together.
        flush()
        heading = paragraph.heading
        bufferHeading = heading
      }
      for (const piece of pieces(paragraph.text)) {
        if (buffer && buffer.length + piece.length + 2 > CHUNK_TARGET_CHARS) flush()
        buffer = buffer ? `${buffer}\n\n${piece}` : piece
        yield
      }
    }
    flush()
  }
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
  return [...paragraphs(text, markdown)].filter((p) => p !== null)
}

/** The lines of a text, one at a time (\r\n and a lone \r end a line too). */
function* linesOf(text: string): Generator<string> {
  const normal = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
  let start = 0
  for (;;) {
    const end = normal.indexOf('\n', start)
    if (end === -1) {
      yield normal.slice(start)
      return
    }
    yield normal.slice(start, end)
    start = end + 1
  }
}

/** paragraphsOf, one paragraph at a time, with a pause (null) now and then inside a long one. */
function* paragraphs(text: string, markdown: boolean): Generator<Paragraph | null> {
  let lines: string[] = []
  const joined = () => {
    const paragraph = lines
      .join('\n')
      .replace(/[ \t]+/g, ' ')
      .trim()
    lines = []
    return paragraph ? { text: paragraph, heading: null } : null
  }
  let fence: string | null = null
  for (const line of linesOf(text)) {
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
    if (heading || line.trim() === '') {
      const paragraph = joined()
      if (paragraph) yield paragraph
      if (heading) yield { text: line.trim(), heading }
    } else lines.push(line)
    if (lines.length % LINES_A_PAUSE === LINES_A_PAUSE - 1) yield null
  }
  const paragraph = joined()
  if (paragraph) yield paragraph
}

/** A paragraph of many lines pauses (null) every so many of them. */
const LINES_A_PAUSE = 2000

/** A paragraph longer than a chunk is cut at sentences, and a sentence longer still, hard. */
function* pieces(paragraph: string): Generator<string> {
  if (paragraph.length <= CHUNK_MAX_CHARS) {
    yield paragraph
    return
  }
  let current = ''
  for (const sentence of sentences(paragraph)) {
    if (current && current.length + sentence.length + 1 > CHUNK_TARGET_CHARS) {
      yield current
      current = ''
    }
    current = current ? `${current} ${sentence}` : sentence
    while (current.length > CHUNK_MAX_CHARS) {
      yield current.slice(0, CHUNK_TARGET_CHARS)
      current = current.slice(CHUNK_TARGET_CHARS)
    }
  }
  if (current) yield current
}

/** The paragraph's sentences (split after . ! or ? and the spaces after it), one at a time. */
function* sentences(paragraph: string): Generator<string> {
  const boundary = /(?<=[.!?])\s+/g
  let start = 0
  for (let found = boundary.exec(paragraph); found; found = boundary.exec(paragraph)) {
    yield paragraph.slice(start, found.index)
    start = found.index + found[0].length
  }
  yield paragraph.slice(start)
}
