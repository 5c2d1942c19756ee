import { Suspense } from 'react'
import { useSearch } from 'wouter'
import { useAskAbout } from '#src/features/chat/use-ask-about.ts'
import { retryableLazy } from '#src/lib/lazy-chunk.tsx'
import { css } from '../../../../styled-system/css'
import { useScreenParam } from '../screen-match.ts'

// The viewer (and pdf.js behind it) is its own chunk: neither /login nor the dashboard carries it.
const viewer = retryableLazy(
  () => import('#src/features/viewer/document-viewer.tsx'),
  (module) => module.DocumentViewer,
)

/**
 * One document in the viewer (D72), opened at the passage `?passage=` names; "Ask about this
 * document" there starts a new chat limited to it (D70).
 */
export function DocumentSection() {
  // The route table reached this screen only with an id that decodes.
  const documentId = useScreenParam('id') ?? ''
  const passageId = new URLSearchParams(useSearch()).get('passage')
  const askAbout = useAskAbout()
  return (
    <Suspense fallback={<p className={css({ color: 'muted' })}>Loading document...</p>}>
      <viewer.Lazy
        documentId={documentId}
        passageId={passageId}
        onAskAbout={(document) => askAbout([document])}
      />
    </Suspense>
  )
}
