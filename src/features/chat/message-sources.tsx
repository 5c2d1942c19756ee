import { Link } from 'wouter'
import type { Source } from '#contracts/chat.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import type { SourceGroup } from '#machines/chat/listed-sources.ts'
import { documentPath } from '#src/lib/document-path.ts'
import { css } from '../../../styled-system/css'

const label = (source: Source) => `${source.documentName}${source.page ? ` p. ${source.page}` : ''}`

/**
 * The passages of the person's own documents an answer cites, under that answer (issue 40,
 * item 4): one line per document, its passages in the order the answer cites them, listed as
 * their markers arrive. Each opens its passage (`onShow`), its document in the viewer ("View in
 * document"); a document's name opens the file in Drive when it has a web link.
 */
export function MessageSources({
  groups,
  onShow,
}: {
  groups: SourceGroup[]
  onShow: (source: Source, opener: HTMLElement) => void
}) {
  if (groups.length === 0) return null
  return (
    <div className={css({ fontSize: 'xs', color: 'muted' })}>
      <span>Sources:</span>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
        {groups.map((group) => (
          <li key={group.documentId} className={css({ overflowWrap: 'anywhere' })}>
            <DocumentName source={group.sources[0]} name={group.documentName} />
            <ul className={css({ display: 'inline' })}>
              {group.sources.map((source) => (
                <li key={source.chunkId} className={css({ display: 'inline', ml: '2' })}>
                  <Passage source={source} onShow={onShow} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  )
}

function DocumentName({ source, name }: { source: Source | undefined; name: string }) {
  // Only https links open: any other scheme from stored data is plain text.
  const link = safeExternalLink(source?.link ?? null)
  if (link === null) return <span className={css({ color: 'text' })}>{name}</span>
  return (
    <a
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      className={css({ color: 'accent', textDecoration: 'underline' })}
    >
      {name}
    </a>
  )
}

function Passage({
  source,
  onShow,
}: {
  source: Source
  onShow: (source: Source, opener: HTMLElement) => void
}) {
  return (
    <>
      {source.page ? `p. ${source.page}` : null}
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
    </>
  )
}
