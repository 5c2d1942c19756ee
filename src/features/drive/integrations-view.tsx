import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark } from '#src/components/ui/dashboard-icons.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { css } from '../../../styled-system/css'
import { useDriveConnection, useListDriveOnShow } from './use-drive.ts'

/**
 * product §2 Integrations: the Google Drive card offers 'Connect Now' (a popup on Google's consent
 * page) until a listing has succeeded, then a disabled 'Connected' and 'Disconnect', which asks
 * whether to keep the Drive documents. Showing it checks the drive. A server without Google says
 * so instead of offering a Connect that cannot work (D133).
 */
export function IntegrationsView() {
  useListDriveOnShow()
  const drive = useDriveConnection()
  const { connected, connect } = drive
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
            {drive.disconnectFailure ? <Alert>{drive.disconnectFailure}</Alert> : null}
            {connected ? (
              <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                <Button variant="secondary" size="sm" disabled>
                  Connected
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={drive.disconnecting}
                  onClick={drive.askDisconnect}
                >
                  {drive.disconnecting ? 'Disconnecting...' : 'Disconnect'}
                </Button>
              </div>
            ) : drive.configured ? (
              <Button variant="primary" size="sm" onClick={connect}>
                Connect Now
              </Button>
            ) : (
              <p className={css({ fontSize: 'sm', color: 'muted' })}>
                Google Drive is not set up on this server. Its operator can add a Google OAuth client to offer
                it.
              </p>
            )}
          </Card>
        </li>
      </ul>
      {drive.confirmingDisconnect ? (
        <Dialog
          title="Disconnect Google Drive"
          onClose={drive.cancelDisconnect}
          footer={
            <>
              <Button variant="secondary" onClick={drive.cancelDisconnect}>
                Cancel
              </Button>
              <Button variant="secondary" onClick={() => drive.disconnect('keep')}>
                Keep documents
              </Button>
              <Button variant="danger" onClick={() => drive.disconnect('remove')}>
                Remove documents
              </Button>
            </>
          }
        >
          <p>
            DocChat will no longer read your Drive, and Google will forget its access. Keep the documents that
            came from Google Drive in your library, so the assistant can still answer from them, or remove
            them?
          </p>
        </Dialog>
      ) : null}
    </section>
  )
}
