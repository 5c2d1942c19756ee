import type { ComponentProps } from 'react'
import { css, cx } from '../../../styled-system/css'

const cardStyle = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  boxShadow: 'sm',
  p: '5',
})

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cx(cardStyle, className)} {...props} />
}
