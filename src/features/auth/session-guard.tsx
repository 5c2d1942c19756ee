import type { ReactNode } from 'react'
import { Redirect } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { fromRoot, paths } from '#src/lib/paths.ts'
import { useSessionGuard } from './use-auth.ts'

/**
 * product §2 Guard: 'Loading...' while the session is checked, /login (replacing history) without
 * one. It guards the dashboard's nested routes, hence /login in wouter's absolute form.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const status = useSessionGuard()
  if (status === 'redirect') return <Redirect to={fromRoot(paths.login)} replace />
  if (status === 'loading') return <FullPageMessage>Loading...</FullPageMessage>
  return children
}
