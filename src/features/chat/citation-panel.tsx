import type { Source } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { css } from '../../../styled-system/css'

/** Only https links open: the Drive file, never another scheme from stored data. */
export const isHttpsLink = (link: string | null | undefined): link is string =>
  typeof link === 'string' && /^https:\/\//i.test(link)

export const sourceLabel = (source: Source) =>
  [source.documentName, source.page ? `p. ${source.page}` : null, source.heading ?? null]
    .filter(Boolean)
    .join(' · ')

/** The passage an answer cited, as it was when the answer was written: check it against the answer. */
export function CitationPanel({ source, onClose }: { source: Source; onClose: () => void }) {
  return (
    <section
      aria-label={`Passage ${source.citation ?? ''} from ${source.documentName}`.replace('  ', ' ')}
      className={css({
        maxW: { base: '90%', md: '80%' },
        p: '3',
        bg: 'surface',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'lg',
        boxShadow: 'sm',
        fontSize: 'sm',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
      })}
    >
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}>
        <strong>
          {source.citation ? `[${source.citation}] ` : ''}
          {sourceLabel(source)}
        </strong>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      {source.quote ? (
        <blockquote
          className={css({ borderLeftWidth: '3px', borderColor: 'border', pl: '3', whiteSpace: 'pre-wrap' })}
        >
          {source.quote}
        </blockquote>
      ) : (
        <p className={css({ color: 'muted' })}>This answer was stored before passages were kept with it.</p>
      )}
      {isHttpsLink(source.link) ? (
        <a
          href={source.link}
          target="_blank"
          rel="noopener noreferrer"
          className={css({ color: 'accent', textDecoration: 'underline' })}
        >
          Open {source.documentName}
        </a>
      ) : null}
    </section>
  )
}
