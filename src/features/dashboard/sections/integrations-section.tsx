import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DriveMark } from '#src/components/ui/icons.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { css } from '../../../../styled-system/css'

/** SPEC §2 Integrations view; the drive feature makes 'Connect Now' open the provider's page. */
export function IntegrationsSection() {
  return (
    <section>
      <SectionHeader
        title="Apps & Integrations"
        subtitle="Give your Assistant access to your favorite apps"
      />
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))',
        })}
      >
        <Card className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
            <span
              className={css({
                display: 'grid',
                placeItems: 'center',
                w: '10',
                h: '10',
                borderRadius: 'lg',
                bg: 'surfaceMuted',
              })}
            >
              <DriveMark size={22} />
            </span>
            <h2 className={css({ fontWeight: 'semibold' })}>Google Drive</h2>
          </div>
          <Button variant="primary" size="sm">
            Connect Now
          </Button>
        </Card>
      </div>
    </section>
  )
}
