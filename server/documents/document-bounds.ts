/**
 * How much of one document is read (D90): a ceiling on its text and on its passages that scales
 * with what the largest upload can hold, the same for every kind of file (PDF, Word, text, Drive's
 * exports). A document past it keeps its beginning and says why in the library ("ready" with a
 * reason); it never becomes tens of thousands of passages because its bytes compress well (an
 * 84 KB PDF can hold 40 MB of tiny text).
 */
import {
  type Chunk,
  type ChunkOptions,
  chunkDocument,
  chunkDocumentInTurns,
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
