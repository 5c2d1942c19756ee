import type { KeyboardEvent, ReactNode } from 'react'
import { Link } from 'wouter'
import type { Source } from '#contracts/chat.ts'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import {
  foundItems,
  highlightedPieces,
  judgedAt,
  listed,
  missingFrom,
  type Part,
} from '#machines/chat/citation-outcomes.ts'
import { citedSpans } from '#machines/chat/cited-words.ts'
import { Button } from '#src/components/ui/button.tsx'
import { CloseIcon } from '#src/components/ui/dashboard-icons.tsx'
import { documentPath } from '#src/lib/document-path.ts'
import { css } from '../../../styled-system/css'
import { useAskAbout } from './use-ask-about.ts'

/** Only https links open: the Drive file, never another scheme from stored data. */
export const isHttpsLink = (link: string | null | undefined): link is string =>
  typeof link === 'string' && /^https:\/\//i.test(link)

export const sourceLabel = (source: Source) =>
  [source.documentName, source.page ? `p. ${source.page}` : null, source.heading ?? null]
    .filter(Boolean)
    .join(' · ')

const linkStyle = css({ color: 'accent', textDecoration: 'underline', overflowWrap: 'anywhere' })

/**
 * Beside the conversation on a wide screen (its own column, scrolling on its own); a sheet over
 * the bottom of the screen on a phone, where there is no room beside it.
 */
const panelStyle = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  p: '4',
  bg: 'surface',
  borderColor: 'border',
  fontSize: 'sm',
  overflowY: 'auto',
  position: 'fixed',
  insetX: '0',
  bottom: '0',
  zIndex: '40',
  maxH: '70dvh',
  borderTopWidth: '1px',
  borderTopRadius: '2xl',
  boxShadow: 'xl',
  md: {
    position: 'sticky',
    top: '0',
    insetX: 'auto',
    zIndex: 'auto',
    alignSelf: 'start',
    maxH: 'full',
    borderWidth: '1px',
    borderRadius: 'xl',
    boxShadow: 'sm',
  },
})

const markStyle = css({ bg: 'brand.100', color: 'text', borderRadius: 'sm', px: '0.5' })
/** A figure, name or quotation of the answer found in the passage (D129). */
const itemStyle = css({ bg: 'brand.100', color: 'text', fontWeight: 'semibold', textDecoration: 'underline' })

type CitationPanelProps = {
  source: Source
  /** The answer citing it: the words it leans on are marked in the passage. */
  answer: string
  /** The answer's citation checks (D129): the items found here are highlighted, the missing listed. */
  checks?: CitationCheck[] | null | undefined
  onClose: () => void
}

/**
 * The passage an answer cited, as it was when the answer was written, to check against the
 * answer: its document, page and heading, the sentences the answer leans on marked. The focus
 * moves in when it opens; Escape or Close closes it (the caller gives the focus back to the
 * marker that opened it). Links to the document go in its footer: "View in document" (the
 * viewer of D72, where the passage stands in its document) and the Drive file; and "Ask about this
 * document" (a new chat limited to it, D70).
 */
export function CitationPanel({ source, answer, checks, onClose }: CitationPanelProps) {
  const label = `Passage ${source.citation ?? ''} from ${source.documentName}`.replace('  ', ' ')
  const askAbout = useAskAbout()
  const missing = missingFrom(checks, source.citation)
  const moved = (checks ?? []).filter((c) => c.outcome === 'repaired' && c.sourceIndex === source.citation)
  return (
    <section
      aria-label={label}
      ref={focusOnOpen}
      tabIndex={-1}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== 'Escape') return
        event.preventDefault()
        onClose()
      }}
      className={panelStyle}
    >
      <header className={css({ display: 'flex', alignItems: 'flex-start', gap: '2' })}>
        <h2 className={css({ flex: '1', minW: '0', fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
          {source.citation ? `[${source.citation}] ` : ''}
          {sourceLabel(source)}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          <CloseIcon size={14} />
          Close
        </Button>
      </header>
      {source.quote ? (
        <blockquote
          className={css({ borderLeftWidth: '3px', borderColor: 'border', pl: '3', whiteSpace: 'pre-wrap' })}
        >
          {highlightedPieces(
            source.quote,
            citedSpans(answer, source.citation, source.quote),
            foundItems(checks, source.citation, source.quote),
          ).map((piece, i) =>
            piece.marked ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order, never reordered
              <mark key={i} className={markStyle}>
                <Parts parts={piece.parts} found={(text) => <strong className={itemStyle}>{text}</strong>} />
              </mark>
            ) : (
              <Parts
                // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order, never reordered
                key={i}
                parts={piece.parts}
                found={(text) => <mark className={itemStyle}>{text}</mark>}
              />
            ),
          )}
        </blockquote>
      ) : (
        <p className={css({ color: 'muted' })}>This answer was stored before passages were kept with it.</p>
      )}
      {missing.length > 0 ? (
        <p role="note" className={css({ color: 'danger' })}>
          <span aria-hidden="true">⚠ </span>Not found in this passage: {listed(missing)}
        </p>
      ) : null}
      {moved.map((check) => (
        <p key={check.sentence} className={css({ color: 'muted', fontSize: 'xs' })}>
          Moved here from passage {check.movedFrom}: “{check.sentence}”
        </p>
      ))}
      {judgedAt(checks, source.citation).map((check) => (
        <p key={check.sentence} className={css({ color: 'muted', fontSize: 'xs' })}>
          {check.judge === 'supported'
            ? "The model judged this supported (not checked against the passage's words)"
            : 'The model judged this not supported by the passage'}
          : “{check.sentence}”
        </p>
      ))}
      {source.mode === 'whole-document' ? (
        <p className={css({ color: 'muted', fontSize: 'xs' })}>
          The whole document was read for this answer.
        </p>
      ) : null}
      <footer
        className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', mt: 'auto' })}
      >
        <Link href={documentPath(source.documentId, source.chunkId)} className={linkStyle}>
          View in document
        </Link>
        {isHttpsLink(source.link) ? (
          <a href={source.link} target="_blank" rel="noopener noreferrer" className={linkStyle}>
            Open {source.documentName}
          </a>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => askAbout([{ id: source.documentId, name: source.documentName }])}
        >
          Ask about this document
        </Button>
      </footer>
    </section>
  )
}

/** A stretch of the passage, its found items (D129) drawn by `found`, marked as found for tests and styles. */
function Parts({ parts, found }: { parts: Part[]; found: (text: string) => ReactNode }) {
  return parts.map((part, i) =>
    part.item ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered
      <span key={i} data-found="">
        {found(part.text)}
      </span>
    ) : (
      part.text
    ),
  )
}

/**
 * The focus moves into the panel as it opens, so the keyboard is where the eyes went, and the
 * first marked sentence scrolls into view in a long passage.
 */
function focusOnOpen(panel: HTMLElement | null) {
  panel?.focus()
  panel?.querySelector('mark')?.scrollIntoView?.({ block: 'nearest' })
}
