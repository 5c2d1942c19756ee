import type { ReactNode } from 'react'
import { Redirect } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { paths } from '#src/lib/paths.ts'
import { useSessionGuard } from './use-auth.ts'

/** product §2 Guard: 'Loading...' while the session is checked, /login (replacing history) without one. */
export function SessionGuard({ children }: { children: ReactNode }) {
  const status = useSessionGuard()
  if (status === 'redirect') return <Redirect to={paths.login} replace />
  if (status === 'loading') return <FullPageMessage>Loading...</FullPageMessage>
  return children
}
