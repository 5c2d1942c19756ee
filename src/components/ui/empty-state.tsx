import type { ReactNode } from 'react'
import { css } from '../../../styled-system/css'
import { centredNoticeStyle } from './centred-notice.ts'

type EmptyStateProps = { icon: ReactNode; title: string; children: ReactNode }

/** What a section says when there is nothing in it yet. */
export function EmptyState({ icon, title, children }: EmptyStateProps) {
  return (
    <div className={centredNoticeStyle}>
      <div
        className={css({
          display: 'grid',
          placeItems: 'center',
          w: '14',
          h: '14',
          borderRadius: 'full',
          bg: 'brand.50',
          color: 'accent',
        })}
      >
        {icon}
      </div>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{title}</h2>
      <p className={css({ color: 'muted' })}>{children}</p>
    </div>
  )
}
