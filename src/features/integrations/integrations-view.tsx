import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark } from '#src/components/ui/icons.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { css } from '../../../styled-system/css'
import { useDriveConnection, useListDriveOnShow } from './use-drive.ts'

/**
 * SPEC §2 Integrations: the Google Drive card offers 'Connect Now' (a popup on Google's consent
 * page) until a listing has succeeded, then a disabled 'Connected'. Showing it checks the drive.
 */
export function IntegrationsView() {
  useListDriveOnShow()
  const { connected, connect } = useDriveConnection()
  return (
    <section>
      <SectionHeader
        title="Apps & Integrations"
        subtitle="Give your Assistant access to your favorite apps"
      />
      <ul
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))',
        })}
      >
        <li>
          <Card className={css({ display: 'flex', flexDirection: 'column', gap: '4', h: 'full' })}>
            <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
              <span
                className={css({
                  display: 'grid',
                  placeItems: 'center',
                  w: '10',
                  h: '10',
                  flexShrink: 0,
                  borderRadius: 'lg',
                  bg: 'surfaceMuted',
                })}
              >
                <DriveMark size={22} />
              </span>
              <div>
                <h2 className={css({ fontWeight: 'semibold' })}>Google Drive</h2>
                <p className={css({ fontSize: 'sm', color: 'muted' })}>
                  Chat with the documents in your Drive.
                </p>
              </div>
            </div>
            {connected ? (
              <Button variant="secondary" size="sm" disabled>
                Connected
              </Button>
            ) : (
              <Button variant="primary" size="sm" onClick={connect}>
                Connect Now
              </Button>
            )}
          </Card>
        </li>
      </ul>
    </section>
  )
}
