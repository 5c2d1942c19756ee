import type { ReactNode } from 'react'
import { css } from '../../../styled-system/css'

/** A centred line of text for the whole viewport: the guard's 'Loading...'. */
export function FullPageMessage({ children }: { children: ReactNode }) {
  return (
    <div
      role="status"
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        color: 'muted',
        fontSize: 'md',
      })}
    >
      {children}
    </div>
  )
}
