import { Card } from '#src/components/ui/card.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { css } from '../../../../styled-system/css'

/** SPEC §2 Documents view; the drive feature lists, downloads and ingests files here. */
export function DocsSection() {
  return (
    <section>
      <SectionHeader title="Documents" />
      <Card className={css({ textAlign: 'center', color: 'muted', py: '10' })}>
        <p>No documents found.</p>
      </Card>
    </section>
  )
}
