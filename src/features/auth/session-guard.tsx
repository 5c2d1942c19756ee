import type { ReactNode } from 'react'
import { Redirect } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { fromRoot, paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { useServerUnreachable, useSessionGuard } from './use-auth.ts'

/** Said while the session check waits for a server it cannot reach (§8: not a sign-out). */
export const UNREACHABLE_TEXT = 'Can’t reach the server — retrying…'

/**
 * product §2 Guard: 'Loading...' while the session is checked, /login (replacing history) without
 * one. It guards the dashboard's nested routes, hence /login in wouter's absolute form. A server
 * that cannot be reached keeps the person where they are, with a line saying it is retrying.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const status = useSessionGuard()
  const unreachable = useServerUnreachable()
  if (status === 'redirect') return <Redirect to={fromRoot(paths.login)} replace />
  if (status === 'loading')
    return <FullPageMessage>{unreachable ? UNREACHABLE_TEXT : 'Loading...'}</FullPageMessage>
  return (
    <>
      {unreachable ? <UnreachableBanner /> : null}
      {children}
    </>
  )
}

function UnreachableBanner() {
  return (
    <div
      role="status"
      className={css({
        position: 'fixed',
        top: '2',
        insetInline: '0',
        marginInline: 'auto',
        width: 'fit-content',
        maxWidth: 'calc(100% - 1rem)',
        zIndex: '60',
        paddingBlock: '2',
        paddingInline: '4',
        borderRadius: 'md',
        bg: 'surface',
        color: 'text',
        borderWidth: '1px',
        borderColor: 'borderStrong',
        boxShadow: 'md',
      })}
    >
      {UNREACHABLE_TEXT}
    </div>
  )
}
