import { Link } from 'wouter'
import { Button } from '#src/components/ui/button.tsx'
import { LogOutIcon, SettingsIcon } from '#src/components/ui/dashboard-icons.tsx'
import { LogoMark } from '#src/components/ui/icons.tsx'
import { useCurrentUserEmail, useLogout } from '#src/features/auth/use-signed-in.ts'
import { css } from '../../../styled-system/css'
import { useDashboard } from './use-dashboard.ts'

// The settings button is a link (to /dashboard/settings; the header is inside its nested routes) drawn as the ghost icon button.
const iconLinkStyle = css({
  display: 'inline-grid',
  placeItems: 'center',
  h: '9',
  w: '9',
  borderRadius: 'lg',
  color: 'muted',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'surfaceMuted', color: 'text' },
})

/** Logo, who is signed in ('User' when the email is unknown), Settings (a link) and Logout. */
export function DashboardHeader() {
  const email = useCurrentUserEmail()
  const { logout, loggingOut } = useLogout()
  const { isShown } = useDashboard()
  return (
    <header
      className={css({
        gridColumn: '1 / -1',
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        // Lower on a phone, where every row above the conversation costs a line of it.
        h: { base: '12', md: '16' },
        px: { base: '4', md: '6' },
        bg: 'surface',
        borderBottomWidth: '1px',
        borderColor: 'border',
      })}
    >
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '2',
          fontWeight: 'semibold',
          mr: 'auto',
        })}
      >
        <LogoMark />
        <span className={css({ fontSize: 'lg', display: { base: 'none', sm: 'inline' } })}>DocChat</span>
      </div>
      <span
        className={css({
          fontSize: 'sm',
          color: 'muted',
          truncate: true,
          maxW: { base: '40vw', md: '20rem' },
        })}
        title={email || undefined}
      >
        {email || 'User'}
      </span>
      <Link href="/settings" replace={isShown('settings')} aria-label="Settings" className={iconLinkStyle}>
        <SettingsIcon />
      </Link>
      <Button variant="secondary" size="sm" onClick={logout} disabled={loggingOut}>
        <LogOutIcon size={16} />
        Logout
      </Button>
    </header>
  )
}
