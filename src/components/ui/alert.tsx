import type { ReactNode } from 'react'
import { alert } from '#src/theme/alert.ts'

/** An error box read out as soon as it appears (role="alert"); info messages are polite. */
export function Alert({ tone = 'danger', children }: { tone?: 'danger' | 'info'; children: ReactNode }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={alert({ tone })}>
      {children}
    </div>
  )
}
