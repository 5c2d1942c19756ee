import { Card } from '#src/components/ui/card.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { AccountDataCard } from '#src/features/account/account-data-card.tsx'
import { ApiKeysCard } from '#src/features/account/api-keys-card.tsx'
import { AppearanceCard } from '#src/features/account/appearance-card.tsx'
import { ChangePasswordCard } from '#src/features/account/change-password-card.tsx'
import { SessionsCard } from '#src/features/account/sessions-card.tsx'
import { UsageCard } from '#src/features/account/usage-card.tsx'
import { GoogleSignedInNotice } from '#src/features/auth/google-sign-in-notice.tsx'
import { useCurrentUserEmail } from '#src/features/auth/use-signed-in.ts'
import { css } from '../../../../styled-system/css'

/** Where the sidebar's settings card leads (Account Settings, Preferences, Privacy): anchors on this page. */
export const SETTINGS_ANCHORS = {
  account: 'account',
  preferences: 'profile',
  usage: 'usage',
  privacy: 'privacy',
} as const

const groupStyle = css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '8', scrollMarginTop: '4' })
const groupTitleStyle = css({ fontSize: 'xl', fontWeight: 'semibold' })

/**
 * product §2 Settings view: what a Google sign-in landing here has to say (D99); the Profile card as specified (the Display Name is typed but never
 * saved, so no save action is shown) and the light/dark choice (D136); then the account's own settings (D78, D81): the password
 * and where it is signed in, its API keys (issue 38), what its answers spent (D126), and its data (export, delete).
 */
export function SettingsSection() {
  const email = useCurrentUserEmail()
  return (
    <section>
      <SectionHeader title="Settings" />
      <GoogleSignedInNotice />
      <Card
        id={SETTINGS_ANCHORS.preferences}
        className={css({
          maxW: 'xl',
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
          scrollMarginTop: '4',
        })}
      >
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Profile</h2>
        <TextField label="Email" type="email" value={email ?? ''} readOnly />
        <TextField label="Display Name" name="displayName" autoComplete="nickname" defaultValue="" />
      </Card>
      <div className={css({ mt: '4' })}>
        <AppearanceCard />
      </div>
      <section id={SETTINGS_ANCHORS.account} aria-labelledby="settings-account" className={groupStyle}>
        <h2 id="settings-account" className={groupTitleStyle}>
          Account
        </h2>
        <ChangePasswordCard />
        <SessionsCard />
        <ApiKeysCard />
      </section>
      <section id={SETTINGS_ANCHORS.usage} aria-labelledby="settings-usage" className={groupStyle}>
        <h2 id="settings-usage" className={groupTitleStyle}>
          Usage
        </h2>
        <UsageCard />
      </section>
      <section id={SETTINGS_ANCHORS.privacy} aria-labelledby="settings-privacy" className={groupStyle}>
        <h2 id="settings-privacy" className={groupTitleStyle}>
          Privacy and data
        </h2>
        <AccountDataCard />
      </section>
    </section>
  )
}
