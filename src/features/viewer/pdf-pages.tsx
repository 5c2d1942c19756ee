/**
 * A PDF, page by page, with pdf.js: every page has its place (sized like the first page until it
 * is drawn), but only the pages near the one in view are drawn (canvas and text layer), and a
 * page that scrolls far away is released again, so a 300-page file costs what three pages cost.
 * The cited passage is marked on its page's text layer and scrolled to. The text layer is real
 * text: it can be selected, searched with the browser's Find, and read by a screen reader.
 */
import { useEffect, useRef, useState } from 'react'
import { itemsHolding } from '#machines/viewer/passage-match.ts'
import { css, cx } from '../../../styled-system/css'
import { loadPdfJs, type PdfDocument } from './pdf.ts'
import './pdf-text-layer.css'
import { paneStyle } from './viewer-styles.ts'

/** Pages drawn on each side of the ones in view. */
const NEAR = 1
/** The widest a page is drawn, in CSS pixels per PDF point. */
const MAX_SCALE = 1.5

type Cited = { page: number; text: string } | null

type PdfPagesProps = {
  pdf: PdfDocument
  /** The page to scroll to; `jumps` changes each time the person asks to go somewhere. */
  page: number
  jumps: number
  cited: Cited
  /** Times the width that fits the pane (1): a larger page scrolls sideways. */
  zoom: number
  onPageShown: (page: number) => void
}

export function PdfPages({ pdf, page, jumps, cited, zoom, onPageShown }: PdfPagesProps) {
  const scroller = useRef<HTMLElement>(null)
  const [width, setWidth] = useState(0)
  const [base, setBase] = useState<{ width: number; height: number } | null>(null)
  const [visible, setVisible] = useState<ReadonlySet<number>>(() => new Set([page]))

  useEffect(() => {
    let live = true
    void pdf.getPage(1).then((first) => {
      const viewport = first.getViewport({ scale: 1 })
      if (live) setBase({ width: viewport.width, height: viewport.height })
    })
    return () => {
      live = false
    }
  }, [pdf])

  useEffect(() => {
    const element = scroller.current
    if (!element) return
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  // Which pages are in view (those are drawn, with their neighbours), and which one crosses the
  // middle of the pane: that is "the page", for the page counter (the last sliver of the page
  // before is in view too, but nobody is reading it).
  useEffect(() => {
    const root = scroller.current
    if (!root || !base) return
    const shown = new Set<number>()
    const pageOf = (entry: IntersectionObserverEntry) => Number((entry.target as HTMLElement).dataset.page)
    const inView = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) shown.add(pageOf(entry))
          else shown.delete(pageOf(entry))
        }
        if (shown.size > 0) setVisible(new Set(shown))
      },
      { root, threshold: 0.01 },
    )
    const middle = new IntersectionObserver(
      (entries) => {
        const current = entries.findLast((entry) => entry.isIntersecting)
        if (current) onPageShown(pageOf(current))
      },
      { root, rootMargin: '-50% 0px -50% 0px' },
    )
    for (const element of root.querySelectorAll('[data-page]')) {
      inView.observe(element)
      middle.observe(element)
    }
    return () => {
      inView.disconnect()
      middle.disconnect()
    }
  }, [base, onPageShown])

  // The page the person asked for (the cited one at first): scrolled to, once it has its place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a jump is what scrolls, not the page number alone
  useEffect(() => {
    if (!base) return
    scroller.current?.querySelector(`[data-page="${page}"]`)?.scrollIntoView({ block: 'start' })
  }, [base, jumps])

  const scale = base && width > 0 ? Math.min(MAX_SCALE, (width - 16) / base.width) * zoom : 0
  const near = (n: number) => [...visible, page].some((v) => Math.abs(v - n) <= NEAR)
  return (
    <section
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the pages scroll by keyboard (arrows, Page Down) once focused
      tabIndex={0}
      aria-label="Document pages"
      className={cx(paneStyle, css({ bg: 'surfaceMuted', py: '2', overflowX: 'auto' }))}
    >
      {base && scale > 0
        ? Array.from({ length: pdf.numPages }, (_, i) => i + 1).map((n) => (
            <PdfPage
              key={n}
              pdf={pdf}
              number={n}
              total={pdf.numPages}
              scale={scale}
              placeholder={{ width: base.width * scale, height: base.height * scale }}
              drawn={near(n)}
              cited={cited?.page === n ? cited.text : null}
            />
          ))
        : null}
    </section>
  )
}

type PdfPageProps = {
  pdf: PdfDocument
  number: number
  total: number
  scale: number
  placeholder: { width: number; height: number }
  drawn: boolean
  cited: string | null
}

function PdfPage({ pdf, number, total, scale, placeholder, drawn, cited }: PdfPageProps) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const text = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState(placeholder)

  useEffect(() => {
    const canvasElement = canvas.current
    const textElement = text.current
    if (!drawn || !canvasElement || !textElement) return
    let cancelled = false
    let stop = () => {}
    void (async () => {
      const pdfjs = await loadPdfJs()
      const page = await pdf.getPage(number)
      if (cancelled) return
      const viewport = page.getViewport({ scale })
      const ratio = window.devicePixelRatio || 1
      canvasElement.width = Math.floor(viewport.width * ratio)
      canvasElement.height = Math.floor(viewport.height * ratio)
      setSize({ width: viewport.width, height: viewport.height })
      const render = page.render({
        canvas: canvasElement,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      })
      const layer = new pdfjs.TextLayer({
        textContentSource: page.streamTextContent(),
        container: textElement,
        viewport,
      })
      stop = () => {
        render.cancel()
        layer.cancel()
      }
      textElement.replaceChildren()
      await Promise.all([render.promise, layer.render()]).catch(() => undefined)
      if (cancelled || !cited) return
      const marked = itemsHolding(layer.textContentItemsStr, cited).flatMap((i) => layer.textDivs[i] ?? [])
      for (const element of marked) element.classList.add('cited')
      marked[0]?.scrollIntoView({ block: 'center' })
    })()
    return () => {
      cancelled = true
      stop()
      // A page far from view gives its pixels back.
      canvasElement.width = 0
      canvasElement.height = 0
      textElement.replaceChildren()
    }
  }, [pdf, number, scale, drawn, cited])

  return (
    <section
      data-page={number}
      aria-label={`Page ${number} of ${total}`}
      className={`pdfPage ${css({ position: 'relative', mx: 'auto', my: '2', bg: 'white', boxShadow: 'sm' })}`}
      style={{ width: size.width, height: size.height, ['--scale-factor' as string]: scale }}
    >
      <canvas ref={canvas} style={{ width: size.width, height: size.height, display: 'block' }} />
      <div ref={text} className="textLayer" />
    </section>
  )
}
