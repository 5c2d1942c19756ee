import type { CitationCheck } from '#contracts/citation-checks.ts'
import { uncited } from '#machines/chat/citation-outcomes.ts'
import { css } from '../../../styled-system/css'

/** The answer's sentences that state a figure and cite no passage (D129): marked in words. */
export function UncitedNote({ checks }: { checks: readonly CitationCheck[] | null | undefined }) {
  const sentences = uncited(checks)
  if (sentences.length === 0) return null
  return (
    <ul
      aria-label="Not cited"
      className={css({ fontSize: 'xs', color: 'danger', display: 'grid', gap: '0.5' })}
    >
      {sentences.map((sentence) => (
        <li key={sentence}>
          <span aria-hidden="true">⚠ </span>Not cited: “{sentence}” names no source.
        </li>
      ))}
    </ul>
  )
}
