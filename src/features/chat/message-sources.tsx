import type { Source } from '#contracts/chat.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import { css } from '../../../styled-system/css'

const label = (source: Source) => `${source.documentName}${source.page ? ` p. ${source.page}` : ''}`

/** The passages of the person's own documents an answer drew on, under that answer. */
export function MessageSources({ sources }: { sources: Source[] }) {
  if (sources.length === 0) return null
  return (
    <div className={css({ fontSize: 'xs', color: 'muted', display: 'flex', gap: '1', flexWrap: 'wrap' })}>
      <span>Sources:</span>
      <ul className={css({ display: 'contents' })}>
        {sources.map((source) => (
          <li key={source.chunkId} className={css({ overflowWrap: 'anywhere' })}>
            <SourceLabel source={source} />
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Only https links open (README D37): any other scheme from stored data is plain text. */
function SourceLabel({ source }: { source: Source }) {
  const link = safeExternalLink(source.link)
  if (link === null) return label(source)
  return (
    <a
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      className={css({ color: 'accent', textDecoration: 'underline' })}
    >
      {label(source)}
    </a>
  )
}
