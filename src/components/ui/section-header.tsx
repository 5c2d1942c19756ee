import type { ReactNode } from 'react'
import { css } from '../../../styled-system/css'

type SectionHeaderProps = { title: string; subtitle?: string; actions?: ReactNode }

/** The heading line of a dashboard section. */
export function SectionHeader({ title, subtitle, actions }: SectionHeaderProps) {
  return (
    <header
      className={css({
        display: 'flex',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        gap: '4',
        mb: '6',
      })}
    >
      <div>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })}>
          {title}
        </h1>
        {subtitle ? <p className={css({ color: 'muted', mt: '1' })}>{subtitle}</p> : null}
      </div>
      {actions}
    </header>
  )
}
