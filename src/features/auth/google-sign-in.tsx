/**
 * 'Sign in with Google' on the account screens, loaded only on a server where Google is
 * configured: it shows after the account options are read anyway, and elsewhere /login does not
 * carry Google's mark (bench/RESULTS.md, bench:bundle). A file that fails to load is the page's
 * error boundary's to tell, as for every other part loaded on demand.
 */
import { Suspense } from 'react'
import { retryableLazy } from '#src/lib/lazy-chunk.tsx'

const button = retryableLazy(
  () => import('./google-sign-in-button.tsx'),
  (module) => module.GoogleSignInButton,
)

export function GoogleSignIn() {
  return (
    <Suspense fallback={null}>
      <button.Lazy />
    </Suspense>
  )
}
