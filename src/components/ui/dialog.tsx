import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import type { ReactNode } from 'react'
import { dialog } from '#src/theme/dialog.ts'
import { Button } from './button.tsx'
import { CloseIcon } from './dashboard-icons.tsx'

type DialogProps = {
  title: string
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
  /**
   * Where the focus goes when the dialog closes, when not back to what had it before (that
   * element may be gone: a menu's item that opened the dialog closed with its menu).
   */
  finalFocus?: () => HTMLElement | null
}

/**
 * A modal dialog, Ark UI's (D107): named by its title, the focus moved in and kept there (Tab
 * goes round inside), the page below hidden from assistive tech; Escape, Close or a click on the
 * backdrop closes it and the focus goes back. It is shown while mounted: the caller decides when.
 */
export function Dialog({ title, onClose, children, footer, finalFocus }: DialogProps) {
  return (
    <ArkDialog.Root
      open
      onOpenChange={(details) => {
        if (!details.open) onClose()
      }}
      {...(finalFocus ? { finalFocusEl: finalFocus } : {})}
    >
      <ArkDialog.Backdrop className={dialog.backdrop} />
      <ArkDialog.Positioner className={dialog.positioner}>
        <ArkDialog.Content className={dialog.content}>
          {/* Plain boxes, not <header>/<footer>: outside a section those are the page's banner and contentinfo landmarks. */}
          <div className={dialog.header}>
            <ArkDialog.Title className={dialog.title}>{title}</ArkDialog.Title>
            <ArkDialog.CloseTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Close">
                <CloseIcon />
              </Button>
            </ArkDialog.CloseTrigger>
          </div>
          {children}
          {footer ? <div className={dialog.footer}>{footer}</div> : null}
        </ArkDialog.Content>
      </ArkDialog.Positioner>
    </ArkDialog.Root>
  )
}
