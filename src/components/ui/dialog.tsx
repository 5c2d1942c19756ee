import { type KeyboardEvent, type ReactNode, useId } from 'react'
import { css } from '../../../styled-system/css'
import { Button } from './button.tsx'
import { CloseIcon } from './dashboard-icons.tsx'

type DialogProps = { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode }

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]):not([hidden]), textarea, [tabindex="0"]'

/**
 * Moves focus into the dialog when it mounts and gives it back to the opener when it goes.
 * A ref callback rather than an effect: it runs exactly when the element comes and goes.
 */
function trapFocus(dialog: HTMLDialogElement | null) {
  if (!dialog) return
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
  const first = dialog.querySelector<HTMLElement>(FOCUSABLE)
  ;(first ?? dialog).focus()
  return () => opener?.focus()
}

/** Escape closes; Tab and Shift+Tab go round inside the dialog instead of leaving it. */
function handleKeys(event: KeyboardEvent<HTMLDialogElement>, onClose: () => void) {
  if (event.key === 'Escape') {
    event.preventDefault()
    onClose()
    return
  }
  if (event.key !== 'Tab') return
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)]
  const first = focusable[0]
  const last = focusable.at(-1)
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last?.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first?.focus()
  }
}

/**
 * A modal dialog: named by its title, focus moved in and kept there, Escape or the close button
 * or a click on the backdrop closes it. A `<dialog open>` drawn by us rather than showModal(),
 * so the same element works in every browser and in jsdom; aria-modal tells assistive tech.
 */
export function Dialog({ title, onClose, children, footer }: DialogProps) {
  const titleId = useId()
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; Escape and Close are the accessible ways out
    <div
      className={css({
        position: 'fixed',
        inset: '0',
        zIndex: '50',
        display: 'grid',
        placeItems: 'center',
        p: '4',
        bg: 'rgba(15, 23, 42, 0.45)',
      })}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <dialog
        open
        aria-modal="true"
        aria-labelledby={titleId}
        ref={trapFocus}
        tabIndex={-1}
        onKeyDown={(event) => handleKeys(event, onClose)}
        className={css({
          position: 'static',
          w: 'full',
          maxW: 'lg',
          maxH: 'calc(100dvh - 2rem)',
          overflowY: 'auto',
          p: '6',
          bg: 'surface',
          color: 'text',
          borderRadius: 'xl',
          boxShadow: 'xl',
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
        })}
      >
        {/* Plain boxes, not <header>/<footer>: outside a section those are the page's banner and contentinfo landmarks. */}
        <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}>
          <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            {title}
          </h2>
          <Button variant="ghost" size="icon" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </Button>
        </div>
        {children}
        {footer ? (
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
            {footer}
          </div>
        ) : null}
      </dialog>
    </div>
  )
}
