/**
 * A document as DocChat read it (text, Markdown, Word, a Google Doc, or a PDF whose file could
 * not be opened): its passages in reading order, each heading once where it starts, page numbers
 * where a PDF's pages begin. The cited passage is marked, scrolled to and focused, so a screen
 * reader starts reading there. Off-screen passages skip layout (content-visibility), which keeps
 * a long document as quick to show as a short one.
 */
import { useEffect, useRef } from 'react'
import type { Passage } from '#contracts/documents.ts'
import { css, cx } from '../../../styled-system/css'
import { paneStyle } from './viewer-styles.ts'

const passageStyle = css({
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  lineHeight: '1.7',
  mb: '3',
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 6rem',
})

export function PassagesView({ passages, citedId }: { passages: Passage[]; citedId: string | null }) {
  const cited = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    const target = cited.current
    if (!target) return
    target.focus({ preventScroll: true })
    // The passages around skip layout until they come near the view, so their true height is
    // known only a frame or two after the first scroll: keep the cited one centred until it has
    // stayed put for a few frames (half a second at most), or until the person scrolls.
    let frame = 0
    let still = 0
    let placed = Number.NaN
    const settle = (frames: number) => {
      if (target.getBoundingClientRect().top === placed) still++
      else still = 0
      if (still >= 3 || frames === 0) return
      // A passage taller than the pane shows from its start, a shorter one in the middle.
      const pane = target.closest('article')?.clientHeight ?? window.innerHeight
      target.scrollIntoView({ block: target.offsetHeight > pane ? 'start' : 'center' })
      placed = target.getBoundingClientRect().top
      frame = requestAnimationFrame(() => settle(frames - 1))
    }
    const stop = () => cancelAnimationFrame(frame)
    const inputs = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const
    for (const input of inputs) window.addEventListener(input, stop, { capture: true, once: true })
    settle(30)
    return () => {
      stop()
      for (const input of inputs) window.removeEventListener(input, stop, { capture: true })
    }
  }, [])
  if (passages.length === 0) {
    return <p className={css({ color: 'muted' })}>This document has no text to show.</p>
  }
  return (
    <article
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls by keyboard once focused
      tabIndex={0}
      aria-label="Document text"
      className={cx(
        paneStyle,
        css({
          px: { base: '3', md: '6' },
          py: '4',
          bg: 'surface',
          borderWidth: '1px',
          borderColor: 'border',
          maxW: '3xl',
        }),
      )}
    >
      {passages.map((passage, i) => {
        const previous = passages[i - 1]
        const heading =
          passage.heading !== null && passage.heading !== previous?.heading ? passage.heading : null
        const page = passage.page !== null && passage.page !== previous?.page ? passage.page : null
        const isCited = passage.id === citedId
        return (
          <div key={passage.id}>
            {page === null ? null : (
              <p className={css({ fontSize: 'xs', color: 'muted', mt: '4', mb: '2' })}>Page {page}</p>
            )}
            {heading === null ? null : (
              <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mt: '5', mb: '2' })}>{heading}</h2>
            )}
            <p ref={isCited ? cited : undefined} tabIndex={isCited ? -1 : undefined} className={passageStyle}>
              {isCited ? (
                <mark
                  className={css({
                    // Dark text on marker yellow in both schemes: well over 4.5:1 either way.
                    bg: '#fde68a',
                    color: '#111827',
                    borderRadius: 'sm',
                    boxShadow: '0 0 0 3px #fde68a',
                  })}
                >
                  <span className={css({ srOnly: true })}>Cited passage: </span>
                  {passage.text}
                </mark>
              ) : (
                passage.text
              )}
            </p>
          </div>
        )
      })}
    </article>
  )
}
