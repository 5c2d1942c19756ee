/**
 * The text of a PowerPoint file (.pptx; Google Slides exported as one), one section per slide in
 * the order the presentation shows them, headed "Slide 3: <its title>" ("Slide 3" when it has no
 * title), so an answer cites the slide it read. A .pptx is a ZIP of XML parts (ECMA-376): the
 * presentation part lists the slides in order, each slide part holds its shapes, whose paragraphs
 * (`a:p`) hold the text runs (`a:t`); the title is the shape whose placeholder is a title. JSZip
 * opens the ZIP, xmldom parses each part (both kept libraries, as in mammoth); notes, masters
 * and layouts are not read. Runs in the reader process, whose ceilings stop a ZIP bomb.
 */
import { DOMParser } from '@xmldom/xmldom'
import type { Paragraph, Section } from './chunker.ts'
import { joinParagraphs, type TextBudget, textBudget } from './document-bounds.ts'
import { isOutOfMemory } from './docx-text.ts'
import { FileReadError } from './read-error.ts'
import { removeControlCharacters } from './text-decoding.ts'

/** Slides read from one presentation; a generated deck of thousands is not read past this. */
export const MAX_SLIDES = 2000

const NS = {
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
}

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle'])

export type SlidesText = { sections: Section[]; note: string | null }

function xml(text: string): Document {
  // xmldom reports malformed XML to its error handler; a slide that cannot be parsed is no text.
  return new DOMParser({ errorHandler: () => undefined }).parseFromString(
    text,
    'text/xml',
  ) as unknown as Document
}

const children = (node: Element | Document, ns: string, name: string): Element[] =>
  Array.from((node as Element).getElementsByTagNameNS(ns, name) as unknown as Iterable<Element>)

/** A shape's paragraphs, each its runs joined, blank ones left out. */
function paragraphsOfShape(shape: Element): string[] {
  return children(shape, NS.a, 'p')
    .map((p) =>
      removeControlCharacters(
        children(p, NS.a, 't')
          .map((t) => t.textContent ?? '')
          .join(''),
      )
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
}

function isTitle(shape: Element): boolean {
  return children(shape, NS.p, 'ph').some((ph) => TITLE_PLACEHOLDERS.has(ph.getAttribute('type') ?? ''))
}

/** The slide parts in the presentation's order, as paths inside the ZIP. */
async function slideOrder(zip: import('jszip')): Promise<string[]> {
  const presentation = await zip.file('ppt/presentation.xml')?.async('string')
  const rels = await zip.file('ppt/_rels/presentation.xml.rels')?.async('string')
  if (!presentation || !rels) throw new FileReadError('the file is not a readable PowerPoint presentation')
  const targets = new Map(
    children(xml(rels), NS.rel, 'Relationship').map((r) => [r.getAttribute('Id'), r.getAttribute('Target')]),
  )
  return children(xml(presentation), NS.p, 'sldId')
    .map((s) => targets.get(s.getAttributeNS(NS.r, 'id')))
    .filter((target): target is string => Boolean(target))
    .map((target) => (target.startsWith('/') ? target.slice(1) : `ppt/${target}`))
}

/** The slides within `budget` (D102): the slides past it are not read (`budget.cut` says so). */
export async function slidesText(bytes: Uint8Array, budget: TextBudget = textBudget()): Promise<SlidesText> {
  const { default: JSZip } = await import('jszip')
  try {
    const zip = await JSZip.loadAsync(bytes)
    const order = await slideOrder(zip)
    const sections: Section[] = []
    for (const [i, part] of order.slice(0, MAX_SLIDES).entries()) {
      if (budget.cut) break
      const slide = await zip.file(part)?.async('string')
      if (!slide) continue
      const shapes = children(xml(slide), NS.p, 'sp')
      const title = shapes.filter(isTitle).flatMap(paragraphsOfShape).join(' ')
      const body = shapes.filter((s) => !isTitle(s)).flatMap(paragraphsOfShape)
      // Tables' cells are paragraphs inside graphic frames, not shapes.
      const tables = children(xml(slide), NS.p, 'graphicFrame').flatMap(paragraphsOfShape)
      const heading = title ? `Slide ${i + 1}: ${title}` : `Slide ${i + 1}`
      if (!title && body.length === 0 && tables.length === 0) continue
      const paragraphs: Paragraph[] = []
      for (const [j, text] of [heading, ...body, ...tables].entries()) {
        const kept = budget.take(text)
        if (kept === null) break
        paragraphs.push({ text: kept, heading: j === 0 ? kept : null })
      }
      if (paragraphs.length > 0) sections.push({ text: joinParagraphs(paragraphs), page: null, paragraphs })
    }
    if (sections.length === 0) throw new FileReadError('the presentation has no text to read')
    return {
      sections,
      note: order.length > MAX_SLIDES ? `only the first ${MAX_SLIDES} slides were read` : null,
    }
  } catch (error) {
    if (error instanceof FileReadError) throw error
    throw new FileReadError(
      isOutOfMemory(error)
        ? 'the presentation is too large to read'
        : 'the file is not a readable PowerPoint presentation',
    )
  }
}
