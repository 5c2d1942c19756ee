import { Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { FullPageMessage } from '#src/components/ui/full-page-message.tsx'
import { LoginView } from '#src/features/auth/login-view.tsx'
import { SessionGuard } from '#src/features/auth/session-guard.tsx'
import { retryableLazy } from '#src/lib/lazy-chunk.tsx'
import { paths } from '#src/lib/paths.ts'
import { RouteBoundary } from './route-boundary.tsx'

// /login must stay light (≤ 135 KB gz): the dashboard loads on demand, and so do the other
// account screens, from a file of their own (account-pages.ts, D139).
const onDemand = () => import('./on-demand-pages.ts')
const dashboard = retryableLazy(onDemand, (module) => module.DashboardView)
const accountPages = () => import('./account-pages.ts')
const register = retryableLazy(accountPages, (module) => module.RegisterView)
const forgotPassword = retryableLazy(accountPages, (module) => module.ForgotPasswordView)
const resetPassword = retryableLazy(accountPages, (module) => module.ResetPasswordView)
const confirmEmail = retryableLazy(accountPages, (module) => module.ConfirmEmailView)
const linkPages = [
  { path: paths.register, area: 'The sign-up page', page: register },
  { path: paths.forgotPassword, area: 'The forgotten-password page', page: forgotPassword },
  { path: paths.resetPassword, area: 'The new-password page', page: resetPassword },
  { path: paths.confirmEmail, area: 'The email confirmation page', page: confirmEmail },
] as const

// A shared conversation (D73) is public. Its page travels in the same on-demand file: a file of its
// own would cost /login a preload entry and a loader of its own, and /login has no room to spare.
const shared = retryableLazy(onDemand, (module) => module.SharedConversationPage)

/** product §2 routes (and the mailed-link pages), each behind an error boundary; any other path goes to /login. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.login}>
        <RouteBoundary area="The sign-in page" page>
          <LoginView />
        </RouteBoundary>
      </Route>
      {linkPages.map(({ path, area, page }) => (
        <Route key={path} path={path}>
          <RouteBoundary area={area} page onRetry={page.retry}>
            <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
              <page.Lazy />
            </Suspense>
          </RouteBoundary>
        </Route>
      ))}
      {/*
        One route for every address under /dashboard, so moving between them never remounts it;
        its screens are nested routes (src/app/dashboard/dashboard-screens.tsx, D106).
      */}
      <Route path={paths.dashboard} nest>
        <RouteBoundary area="The dashboard" page onRetry={dashboard.retry}>
          <SessionGuard>
            <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
              <dashboard.Lazy />
            </Suspense>
          </SessionGuard>
        </RouteBoundary>
      </Route>
      <Route path={paths.shared}>
        {(params) => (
          <RouteBoundary area="The page" page onRetry={shared.retry}>
            <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
              <shared.Lazy token={params.token ?? ''} />
            </Suspense>
          </RouteBoundary>
        )}
      </Route>
      <Route>
        <Redirect to={paths.login} replace />
      </Route>
    </Switch>
  )
}
