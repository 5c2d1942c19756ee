/**
 * The document viewer (D72), its own lazily loaded chunk: the document named by the address,
 * opened at the cited passage. A PDF (or a Google file, as its PDF export) is drawn page by page
 * with pdf.js, the passage marked on its page; any other document shows its passages as read.
 * "Open in Google Drive", "Download" and, for a ready document, "Ask about this document" (a new
 * chat limited to it, D70: `onAskAbout`, the chat's to carry out) stand beside its name.
 */
import { useCallback, useEffect, useState } from 'react'
import { citedPassage, provideViewerMachine } from '#machines/viewer/viewer-machine.ts'
import { createDocumentsApi, documentFileUrl } from '#src/api/documents.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { PassagesView } from './passages-view.tsx'
import { openPdf, type PdfDocument } from './pdf.ts'
import { PdfPages } from './pdf-pages.tsx'
import { ViewerActor } from './viewer-actor.ts'
import { ViewerToolbar } from './viewer-toolbar.tsx'

type AskAbout = (document: { id: string; name: string }) => void

export function DocumentViewer({
  documentId,
  passageId,
  onAskAbout,
}: {
  documentId: string
  passageId: string | null
  onAskAbout?: AskAbout
}) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => {
    const api = createDocumentsApi(http)
    return provideViewerMachine({
      loadDocument: api.getDocument,
      openPdf: (id) => openPdf(documentFileUrl(id)),
    })
  })
  return (
    <ViewerActor.Provider
      key={`${documentId}:${passageId ?? ''}`}
      logic={logic}
      options={{ inspect, input: { documentId, passageId } }}
    >
      <ViewerScreen onAskAbout={onAskAbout} />
    </ViewerActor.Provider>
  )
}

function ViewerScreen({ onAskAbout }: { onAskAbout?: AskAbout | undefined }) {
  const viewer = ViewerActor.useActorRef()
  const snapshot = ViewerActor.useSelector((s) => s)
  const { view, problem, fileProblem, pdf, page, jumps, passageId, zoom } = snapshot.context
  const cited = citedPassage(snapshot.context)
  const onPageShown = useCallback((n: number) => viewer.send({ type: 'viewer.pageShown', page: n }), [viewer])
  // Leaving the viewer ends pdf.js's worker for this document (stopping an actor runs no exit action).
  useEffect(() => () => void viewer.getSnapshot().context.pdf?.destroy?.(), [viewer])
  useDocumentTitle(view?.document.name ?? 'Document')

  if (snapshot.matches('failed')) {
    return (
      <div className={css({ display: 'grid', gap: '3', maxW: '2xl' })}>
        <h1 className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>Document</h1>
        <Alert>{problem}</Alert>
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button onClick={() => viewer.send({ type: 'viewer.retry' })}>Try again</Button>
          <a
            href={paths.docs}
            className={css({ alignSelf: 'center', color: 'accent', textDecoration: 'underline' })}
          >
            Back to Documents
          </a>
        </div>
      </div>
    )
  }
  if (!view) {
    return (
      <p role="status" className={css({ color: 'muted' })}>
        Loading document...
      </p>
    )
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', h: 'full', minH: '0' })}>
      <ViewerToolbar
        document={view.document}
        fileUrl={documentFileUrl(view.document.id)}
        pages={snapshot.matches('readingPdf') && pdf ? { page, total: pdf.numPages, zoom } : null}
        onGoToPage={(n) => viewer.send({ type: 'viewer.goToPage', page: n })}
        onZoom={(by) => viewer.send({ type: 'viewer.zoom', by })}
        onAskAbout={onAskAbout}
      />
      {passageId !== null && cited === null ? (
        <Alert tone="info">
          The cited passage is no longer in this document: it was read again after the answer was written.
        </Alert>
      ) : null}
      {fileProblem ? (
        <Alert tone="info">
          The original file could not be opened: {fileProblem} Its text is shown as DocChat read it.
        </Alert>
      ) : null}
      {snapshot.matches('openingPdf') ? (
        <p role="status" className={css({ color: 'muted' })}>
          Opening the file...
        </p>
      ) : null}
      {snapshot.matches('readingPdf') && pdf ? (
        <>
          {cited ? <CitedPassage text={cited.text} page={cited.page} /> : null}
          <PdfPages
            pdf={pdf as PdfDocument}
            page={page}
            jumps={jumps}
            zoom={zoom}
            cited={cited?.page ? { page: cited.page, text: cited.text } : null}
            onPageShown={onPageShown}
          />
        </>
      ) : null}
      {snapshot.matches('reading') ? (
        <PassagesView passages={view.passages} citedId={cited?.id ?? null} />
      ) : null}
    </div>
  )
}

/** The passage the answer cited, in words, above the drawn pages (and for screen readers first). */
function CitedPassage({ text, page }: { text: string; page: number | null }) {
  return (
    <details
      className={css({
        fontSize: 'sm',
        bg: 'surface',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'lg',
        px: '3',
        py: '2',
      })}
    >
      <summary className={css({ cursor: 'pointer', fontWeight: 'medium' })}>
        Cited passage{page ? `, page ${page}` : ''} (highlighted below)
      </summary>
      <blockquote
        className={css({
          mt: '2',
          borderLeftWidth: '3px',
          borderColor: '#facc15',
          pl: '3',
          whiteSpace: 'pre-wrap',
        })}
      >
        {text}
      </blockquote>
    </details>
  )
}
