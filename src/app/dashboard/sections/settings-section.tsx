import { Card } from '#src/components/ui/card.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { useCurrentUserEmail } from '#src/features/auth/use-auth.ts'
import { css } from '../../../../styled-system/css'

/** product §2 Settings view: the Display Name is typed but never saved, so no save action is shown. */
export function SettingsSection() {
  const email = useCurrentUserEmail()
  return (
    <section>
      <SectionHeader title="Settings" />
      <Card className={css({ maxW: 'xl', display: 'flex', flexDirection: 'column', gap: '4' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Profile</h2>
        <TextField label="Email" type="email" value={email ?? ''} readOnly />
        <TextField label="Display Name" name="displayName" autoComplete="nickname" defaultValue="" />
      </Card>
    </section>
  )
}
