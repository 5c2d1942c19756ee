import type { ReactNode } from 'react'
import { cva } from '../../../styled-system/css'

const alertRecipe = cva({
  base: { borderWidth: '1px', borderRadius: 'lg', px: '4', py: '3', fontSize: 'sm' },
  variants: {
    tone: {
      danger: { bg: 'dangerBg', color: 'danger', borderColor: 'dangerBorder' },
      info: { bg: 'brand.50', color: 'brand.700', borderColor: 'brand.100' },
    },
  },
  defaultVariants: { tone: 'danger' },
})

/** An error box read out as soon as it appears (role="alert"); info messages are polite. */
export function Alert({ tone = 'danger', children }: { tone?: 'danger' | 'info'; children: ReactNode }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={alertRecipe({ tone })}>
      {children}
    </div>
  )
}
