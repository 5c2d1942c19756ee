import { Link } from 'wouter'
import type { Source } from '#contracts/chat.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import { documentPath } from '#src/lib/document-path.ts'
import { css } from '../../../styled-system/css'

const label = (source: Source) => `${source.documentName}${source.page ? ` p. ${source.page}` : ''}`

/**
 * The passages of the person's own documents an answer drew on, under that answer; each opens its
 * passage (`onShow`), its document in the viewer ("View in document"), and the file in Drive when
 * it has a web link.
 */
export function MessageSources({
  sources,
  onShow,
}: {
  sources: Source[]
  onShow: (source: Source, opener: HTMLElement) => void
}) {
  if (sources.length === 0) return null
  return (
    <div className={css({ fontSize: 'xs', color: 'muted', display: 'flex', gap: '1', flexWrap: 'wrap' })}>
      <span>Sources:</span>
      <ul className={css({ display: 'contents' })}>
        {sources.map((source) => (
          <li key={source.chunkId} className={css({ overflowWrap: 'anywhere' })}>
            {/* Only https links open: any other scheme from stored data is plain text. */}
            {safeExternalLink(source.link) !== null ? (
              <a
                href={safeExternalLink(source.link) ?? undefined}
                target="_blank"
                rel="noopener noreferrer"
                className={css({ color: 'accent', textDecoration: 'underline' })}
              >
                {label(source)}
              </a>
            ) : (
              label(source)
            )}
            {source.quote ? (
              <button
                type="button"
                // The name holds what the button shows ([n]), so speech input can say it (WCAG 2.5.3).
                aria-label={`Show the passage ${source.citation ? `[${source.citation}] ` : ''}from ${label(source)}`}
                data-source={source.chunkId}
                onClick={(event) => onShow(source, event.currentTarget)}
                className={css({ ml: '1', color: 'accent', cursor: 'pointer' })}
              >
                {source.citation ? `[${source.citation}]` : '“…”'}
              </button>
            ) : null}{' '}
            <Link
              href={documentPath(source.documentId, source.chunkId)}
              aria-label={`View in document: ${label(source)}`}
              className={css({ color: 'accent', textDecoration: 'underline' })}
            >
              View in document
            </Link>
          </li>
        ))}
      </ul>
    </div>
  )
}
