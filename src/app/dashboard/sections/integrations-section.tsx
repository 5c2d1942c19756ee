import { IntegrationsView } from '#src/features/drive/integrations-view.tsx'

/** product §2 Integrations view: connecting Google Drive (integrations feature). */
export function IntegrationsSection() {
  return <IntegrationsView />
}
