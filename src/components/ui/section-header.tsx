import type { ReactNode } from 'react'
import { css } from '../../../styled-system/css'

type SectionHeaderProps = { title: string; subtitle?: string; actions?: ReactNode }

/**
 * The heading line of a dashboard section. The actions wrap under the title when both do not fit
 * (320 px: "Documents" and "Ingest Documents" are wider than the column), never past the edge.
 */
export function SectionHeader({ title, subtitle, actions }: SectionHeaderProps) {
  return (
    <header
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        columnGap: '4',
        rowGap: '3',
        mb: '6',
      })}
    >
      <div className={css({ minW: '0' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })}>
          {title}
        </h1>
        {subtitle ? <p className={css({ color: 'muted', mt: '1' })}>{subtitle}</p> : null}
      </div>
      {actions}
    </header>
  )
}
