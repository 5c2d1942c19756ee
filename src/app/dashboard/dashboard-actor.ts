/** The dashboard's section actor, scoped to the dashboard route (lazy-loaded with it). */
import { createActorContext } from '@xstate/react'
import { dashboardMachine } from '#machines/dashboard/dashboard-machine.ts'

export const DashboardActor = createActorContext(dashboardMachine)
