import type { ReactNode } from 'react'
import { css } from '../../../styled-system/css'

type EmptyStateProps = { icon: ReactNode; title: string; children: ReactNode }

/** A short message centred in its area: an empty state, or what went wrong. */
export const centredNoticeStyle = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  textAlign: 'center',
  gap: '3',
  py: '12',
  px: '6',
  maxW: 'md',
  mx: 'auto',
})

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
