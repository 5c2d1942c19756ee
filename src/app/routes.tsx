import { Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { LoginView } from '#src/features/auth/login-view.tsx'
import { RegisterView } from '#src/features/auth/register-view.tsx'
import { SessionGuard } from '#src/features/auth/session-guard.tsx'
import { retryableLazy } from '#src/lib/lazy-chunk.tsx'
import { paths } from '#src/lib/paths.ts'
import { RouteBoundary } from './route-boundary.tsx'

// /login must stay light (≤ 135 KB gz): the dashboard and everything under it load on demand.
const dashboard = retryableLazy(
  () => import('#src/app/dashboard/dashboard-view.tsx'),
  (module) => module.DashboardView,
)

/** product §2 routes, each behind an error boundary; any other path goes to /login. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.login}>
        <RouteBoundary area="The sign-in page" page>
          <LoginView />
        </RouteBoundary>
      </Route>
      <Route path={paths.register}>
        <RouteBoundary area="The sign-up page" page>
          <RegisterView />
        </RouteBoundary>
      </Route>
      {/* One route for every address under /dashboard, so moving between them never remounts it. */}
      <Route path={`${paths.dashboard}/*?`}>
        <RouteBoundary area="The dashboard" page onRetry={dashboard.retry}>
          <SessionGuard>
            <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
              <dashboard.Lazy />
            </Suspense>
          </SessionGuard>
        </RouteBoundary>
      </Route>
      <Route>
        <Redirect to={paths.login} replace />
      </Route>
    </Switch>
  )
}
