/**
 * How much of one document is read (D90): a ceiling on its text and on its passages that scales
 * with what the largest upload can hold, the same for every kind of file (PDF, Word, text, Drive's
 * exports). A document past it keeps its beginning and says why in the library ("ready" with a
 * reason); it never becomes tens of thousands of passages because its bytes compress well (an
 * 84 KB PDF can hold 40 MB of tiny text).
 * The reader process stops at the same bounds (D102): its readers stop adding text once the
 * budget is spent (textBudget), and what it sends the server is cut to both bounds
 * (boundReaderSections), so no more than the bound ever crosses to the server.
 */
import {
  type Chunk,
  type ChunkOptions,
  chunkDocument,
  chunkDocumentInTurns,
  type Paragraph,
  placePastLimit,
  type Section,
} from './chunker.ts'

/** The text the largest upload can hold (UPLOAD_MAX_BYTES: 5 MB of plain text), in characters. */
export const MAX_DOCUMENT_CHARS = 5 * 1024 * 1024
/**
 * Passages: 5 MB of prose is ~7,000 passages of ~700 characters (chunker.ts cuts at ~800); the
 * ceiling leaves room for that, and stops text made of headings or one-word paragraphs, which
 * the chunker cannot merge, from turning the same 5 MB into hundreds of thousands.
 */
export const MAX_DOCUMENT_PASSAGES = 8_000

/** The phrase the library shows after "Ready" for a document that was cut. */
export const CUT_REASONS = {
  text: 'only its first 5 MB of text was read (the most one document may hold)',
  passages: 'only its first 8,000 passages were read (the most one document may hold)',
} as const

/**
 * The sections up to MAX_DOCUMENT_CHARS characters of text: later sections are left out and the
 * one that crosses the ceiling is cut (its own paragraphs too, when a reader gave them).
 */
export function boundSections(
  sections: readonly Section[],
  maxChars = MAX_DOCUMENT_CHARS,
): { sections: Section[]; cut: boolean } {
  const kept: Section[] = []
  let left = maxChars
  for (const section of sections) {
    if (section.text.length <= left) {
      kept.push(section)
      left -= section.text.length
      continue
    }
    const text = section.text.slice(0, left)
    const paragraphs = section.paragraphs ? cutParagraphs(section.paragraphs, left) : undefined
    kept.push({ ...section, text, ...(paragraphs ? { paragraphs } : {}) })
    return { sections: kept, cut: true }
  }
  return { sections: kept, cut: false }
}

function cutParagraphs(paragraphs: NonNullable<Section['paragraphs']>, maxChars: number) {
  const kept: NonNullable<Section['paragraphs']>[number][] = []
  let left = maxChars
  for (const paragraph of paragraphs) {
    if (left <= 0) break
    kept.push(
      paragraph.text.length <= left ? paragraph : { ...paragraph, text: paragraph.text.slice(0, left) },
    )
    left -= paragraph.text.length
  }
  return kept
}

/**
 * A document's passages within both ceilings, why it was cut (null when it was read whole), and
 * how many of its sections (a PDF's pages) were read.
 */
export function boundedPassages(
  sections: readonly Section[],
  options: ChunkOptions,
): { chunks: Chunk[]; cut: string | null; pages: number } {
  const bounded = boundSections(sections)
  return bounds(bounded, chunkDocument(bounded.sections, { ...options, limit: MAX_DOCUMENT_PASSAGES + 1 }))
}

/** boundedPassages, chunked in turns of a few milliseconds (in the server: chunkDocumentInTurns). */
export async function boundedPassagesInTurns(
  sections: readonly Section[],
  options: ChunkOptions,
): Promise<{ chunks: Chunk[]; cut: string | null; pages: number }> {
  const bounded = boundSections(sections)
  return bounds(
    bounded,
    await chunkDocumentInTurns(bounded.sections, { ...options, limit: MAX_DOCUMENT_PASSAGES + 1 }),
  )
}

function bounds(bounded: { sections: Section[]; cut: boolean }, chunks: Chunk[]) {
  const pages = bounded.sections.length
  if (chunks.length > MAX_DOCUMENT_PASSAGES)
    return { chunks: chunks.slice(0, MAX_DOCUMENT_PASSAGES), cut: CUT_REASONS.passages, pages }
  return { chunks, cut: bounded.cut ? CUT_REASONS.text : null, pages }
}

/** Between a reader's paragraphs in a section's text (the server rebuilds it so: document-reader.ts). */
export const PARAGRAPH_BREAK = '\n\n'

/** A section's text as a reader gives it: its paragraphs, one break between two. */
export const joinParagraphs = (paragraphs: readonly Paragraph[]): string =>
  paragraphs.map((p) => p.text).join(PARAGRAPH_BREAK)

/**
 * A reader's allowance of text while it builds a document (in the reader process): each paragraph
 * takes what is left (with a break before it, counted whether or not one is written, so what a
 * reader builds never passes the bound). A reader stops at the first paragraph that does not fit
 * whole (`cut`): the rest of the file is not read.
 */
export type TextBudget = {
  /** The part of this paragraph that fits, all of it when it does; null once nothing is left. */
  take(text: string): string | null
  /** Characters left for the next paragraph's text. */
  readonly left: number
  /** Something was left out. */
  readonly cut: boolean
}

export function textBudget(maxChars = MAX_DOCUMENT_CHARS): TextBudget {
  let left = maxChars
  let cut = false
  return {
    take(text) {
      const room = left - PARAGRAPH_BREAK.length
      if (room <= 0) {
        cut ||= text.length > 0
        left = 0
        return null
      }
      const kept = text.length <= room ? text : text.slice(0, room)
      cut ||= kept.length < text.length
      left -= kept.length + PARAGRAPH_BREAK.length
      return kept
    },
    get left() {
      return Math.max(0, left - PARAGRAPH_BREAK.length)
    },
    get cut() {
      return cut
    },
  }
}

/**
 * What the reader process sends the server: the sections within both bounds, the passages
 * counted as the server cuts a reader's sections (no markdown headings), and why it was cut
 * (null when whole). Past the passage bound the sections end at the paragraph where the first
 * passage past it begins (chunker.ts: placePastLimit); the server cuts the passage there itself.
 */
export function boundReaderSections(
  sections: readonly Section[],
  maxChars = MAX_DOCUMENT_CHARS,
): { sections: Section[]; cut: string | null } {
  const bounded = boundSections(sections, maxChars)
  const place = placePastLimit(bounded.sections, MAX_DOCUMENT_PASSAGES)
  if (!place) return { sections: bounded.sections, cut: bounded.cut ? CUT_REASONS.text : null }
  const kept = bounded.sections.slice(0, place.section)
  const last = bounded.sections[place.section] as Section
  // A section without paragraphs of its own (a page, OCR's text) is kept whole: at most one more.
  const paragraphs = last.paragraphs?.slice(0, place.paragraph + 1)
  kept.push(paragraphs ? { ...last, text: joinParagraphs(paragraphs), paragraphs } : last)
  return { sections: kept, cut: CUT_REASONS.passages }
}
