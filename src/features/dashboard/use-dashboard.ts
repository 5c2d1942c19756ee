/** Facade over the dashboard actor: which section is on screen, and choosing another. */
import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { DashboardActor } from './dashboard-actor.ts'

export function useDashboard() {
  const dashboard = DashboardActor.useActorRef()
  const section = DashboardActor.useSelector((snapshot) => snapshot.value)
  return {
    section,
    select(next: DashboardSection) {
      dashboard.send({ type: 'dashboard.select', section: next })
    },
    openSettings() {
      dashboard.send({ type: 'dashboard.select', section: 'settings' })
    },
  }
}
