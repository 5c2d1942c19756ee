import type { ComponentProps } from 'react'
import { card } from '#src/theme/card.ts'
import { cx } from '../../../styled-system/css'

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cx(card(), className)} {...props} />
}
