import { Button } from '#src/components/ui/button.tsx'
import { css } from '../../../styled-system/css'

type AnswerVersionsProps = {
  version: number
  versionCount: number
  /** Another version is on its way, or an answer is being written: the arrows wait. */
  busy: boolean
  onShow: (version: number) => void
}

// aria-disabled rather than disabled: an arrow at the end stays focusable, so the focus is not
// dropped on the page when the first or last version comes up under it.
const arrowStyle = css({
  fontSize: 'lg',
  lineHeight: '1',
  '&[aria-disabled=true]': { opacity: 0.4, cursor: 'not-allowed' },
})

/**
 * ‹ 1/2 › under an answer written more than once (D93): the arrows show the version before or
 * after, which the server stores, so every device and the history show the same one.
 */
export function AnswerVersions({ version, versionCount, busy, onShow }: AnswerVersionsProps) {
  const go = (to: number) => {
    if (!busy && to >= 1 && to <= versionCount) onShow(to)
  }
  return (
    <fieldset aria-label="Answer versions" className={css({ display: 'flex', alignItems: 'center' })}>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Previous version"
        aria-disabled={busy || version <= 1}
        className={arrowStyle}
        onClick={() => go(version - 1)}
      >
        <span aria-hidden="true">‹</span>
      </Button>
      <span
        aria-live="polite"
        className={css({ minW: '8', textAlign: 'center', fontVariantNumeric: 'tabular-nums' })}
      >
        <span aria-hidden="true">
          {version}/{versionCount}
        </span>
        <span className={css({ srOnly: true })}>
          Version {version} of {versionCount}
        </span>
      </span>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Next version"
        aria-disabled={busy || version >= versionCount}
        className={arrowStyle}
        onClick={() => go(version + 1)}
      >
        <span aria-hidden="true">›</span>
      </Button>
    </fieldset>
  )
}
