import { type ReactNode, useEffect, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { centredNoticeStyle } from '#src/components/ui/centred-notice.ts'
import { ErrorBoundary } from '#src/components/ui/error-boundary.tsx'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { isChunkGone, isChunkLoadError } from '#src/lib/lazy-chunk.tsx'
import { css } from '../../styled-system/css'

type RouteBoundaryProps = {
  /** What failed, for the log: 'The sign-in page', 'The Documents section'. */
  area: string
  /** The whole page (its own main region and tab title), or a section inside the dashboard's. */
  page?: boolean
  onRetry?: () => void
  children: ReactNode
}

/**
 * No white screens: what a route renders, behind a boundary that logs the error and tells the
 * person what happened, with a way out (Try again, Reload page).
 */
export function RouteBoundary({ area, page = false, onRetry, children }: RouteBoundaryProps) {
  const { log } = useAppDeps()
  return (
    <ErrorBoundary
      onError={(error) =>
        log.error(`${area} ${isChunkLoadError(error) ? 'could not be loaded' : 'failed to render'}`, error)
      }
      onRetry={onRetry}
      fallback={({ error, retry }) => <FailureNotice error={error} page={page} onRetry={retry} />}
    >
      {children}
    </ErrorBoundary>
  )
}

const TEXTS = {
  broken: {
    title: 'Something went wrong',
    body: 'This part of DocChat stopped working. Try again, or reload the page if it keeps happening. Your conversations and documents are safe.',
  },
  notLoaded: {
    title: 'This page did not load',
    body: 'DocChat could not fetch part of this page. Check your internet connection, then try again.',
  },
  updated: {
    title: 'DocChat has been updated',
    body: 'This page is from an older version. Reload the page to get the new one. Your conversations and documents are safe.',
  },
} as const

type FailureNoticeProps = { error: unknown; page: boolean; onRetry: () => void }

function FailureNotice({ error, page, onRetry }: FailureNoticeProps) {
  const chunk = isChunkLoadError(error)
  const [updated, setUpdated] = useState(false)
  useEffect(() => {
    if (!chunk) return
    let current = true
    void isChunkGone(error).then((gone) => current && setUpdated(gone))
    return () => {
      current = false
    }
  }, [chunk, error])
  const texts = updated ? TEXTS.updated : chunk ? TEXTS.notLoaded : TEXTS.broken
  const notice = (
    <div role="alert" className={centredNoticeStyle}>
      <h1 className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{texts.title}</h1>
      <p className={css({ color: 'muted' })}>{texts.body}</p>
      <div
        className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '2', mt: '2' })}
      >
        {updated ? null : <Button onClick={onRetry}>Try again</Button>}
        <Button variant={updated ? 'primary' : 'secondary'} onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </div>
    </div>
  )
  return page ? <FullPage title={texts.title}>{notice}</FullPage> : notice
}

function FullPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title)
  return <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center' })}>{children}</main>
}
