/**
 * Gives a pdf-lib document an outline (the bookmarks a PDF viewer shows beside the pages): one
 * flat level of entries, each opening the top of a page, as exporters from word processors write
 * them. pdf-lib has no outline API, so the dictionaries are written directly.
 */
import { type PDFDocument, PDFHexString, PDFName, type PDFRef } from 'pdf-lib'

/**
 * `outline`: each entry's title and the 0-based index of the page it opens. With `named`, the
 * entries open named destinations (the catalog's /Dests), as some writers do, instead of pages.
 */
export function addPdfOutline(
  doc: PDFDocument,
  outline: readonly (readonly [string, number])[],
  { named = false } = {},
): void {
  if (outline.length === 0) return
  const pages = doc.getPages()
  const root = doc.context.nextRef()
  const items: PDFRef[] = outline.map(() => doc.context.nextRef())
  const dests = doc.context.obj({})
  outline.forEach(([title, index], i) => {
    // A page index past the end stands for a bookmark whose page is gone: it opens nothing.
    const target = pages[index]?.ref ?? doc.context.obj(index)
    const explicit = doc.context.obj([target, 'XYZ', null, null, null])
    const name = `section-${i + 1}`
    if (named) dests.set(PDFName.of(name), explicit)
    const item = doc.context.obj({
      Title: PDFHexString.fromText(title),
      Parent: root,
      Dest: named ? PDFName.of(name) : explicit,
    })
    if (i > 0) item.set(PDFName.of('Prev'), items[i - 1] as PDFRef)
    if (i < items.length - 1) item.set(PDFName.of('Next'), items[i + 1] as PDFRef)
    doc.context.assign(items[i] as PDFRef, item)
  })
  doc.context.assign(
    root,
    doc.context.obj({
      Type: 'Outlines',
      First: items[0] as PDFRef,
      Last: items[items.length - 1] as PDFRef,
      Count: items.length,
    }),
  )
  doc.catalog.set(PDFName.of('Outlines'), root)
  if (named) doc.catalog.set(PDFName.of('Dests'), doc.context.register(dests))
}
