import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { LoginView } from '#src/features/auth/login-view.tsx'
import { RegisterView } from '#src/features/auth/register-view.tsx'
import { SessionGuard } from '#src/features/auth/session-guard.tsx'
import { paths } from '#src/lib/paths.ts'

// /login must stay light (≤ 120 KB gz): the dashboard and everything under it load on demand.
const DashboardView = lazy(() =>
  import('#src/app/dashboard/dashboard-view.tsx').then((module) => ({ default: module.DashboardView })),
)

/** SPEC §2 routes; any other path goes to /login. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.login} component={LoginView} />
      <Route path={paths.register} component={RegisterView} />
      {/* One route for /dashboard and /dashboard/c/:id, so opening a conversation never remounts it. */}
      <Route path={`${paths.dashboard}/*?`}>
        <SessionGuard>
          <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
            <DashboardView />
          </Suspense>
        </SessionGuard>
      </Route>
      <Route>
        <Redirect to={paths.login} replace />
      </Route>
    </Switch>
  )
}
