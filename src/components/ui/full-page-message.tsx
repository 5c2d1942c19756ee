import { css } from '../../../styled-system/css'
import { useDocumentTitle } from './use-document-title.ts'

/**
 * The whole viewport for one line of text: the guard's 'Loading...'. It is the page's main region
 * and its one heading, so a screen-reader user arriving here knows where they are.
 */
export function FullPageMessage({ children }: { children: string }) {
  useDocumentTitle(children)
  return (
    <main
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        color: 'muted',
      })}
    >
      <div role="status">
        <h1 className={css({ fontSize: 'md', fontWeight: 'normal' })}>{children}</h1>
      </div>
    </main>
  )
}
