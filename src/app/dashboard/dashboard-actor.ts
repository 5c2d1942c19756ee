/** The dashboard's wiring actor (D106), scoped to the dashboard route (lazy-loaded with it); DashboardView fills it. */
import { createActorContext } from '@xstate/react'
import { dashboardMachine } from '#machines/dashboard/dashboard-machine.ts'

export const DashboardActor = createActorContext(dashboardMachine)
