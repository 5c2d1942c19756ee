import { Redirect, Route } from 'wouter'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { fromRoot, paths } from '#src/lib/paths.ts'
import { RouteBoundary } from '../route-boundary.tsx'
import { useScreen } from './screen-match.ts'

/**
 * The main area: the screen the address names (dashboard-screens.tsx), on its nested route, behind
 * its own error boundary (a screen that fails leaves the header and the sidebar working; another
 * screen starts afresh). An address under /dashboard that names none is a new chat, in its place.
 */
export function SectionOutlet() {
  const match = useScreen()
  useDocumentTitle(match?.screen.title ?? null)
  if (!match) return <Redirect to={fromRoot(paths.chat)} replace />
  const { screen, key } = match
  return (
    // One element for every screen, so moving between screens with one key (a new chat and its
    // conversations) keeps the section mounted; its `:id` reaches it through useParams.
    <Route path={match.pattern}>
      <RouteBoundary key={key} area={screen.area ?? `The ${screen.label} section`}>
        <screen.Section />
      </RouteBoundary>
    </Route>
  )
}
