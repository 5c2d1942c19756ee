import { useState } from 'react'
import type { LibraryDocument } from '#contracts/documents.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import { MAX_ZOOM, MIN_ZOOM } from '#machines/viewer/viewer-machine.ts'
import { Button } from '#src/components/ui/button.tsx'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'

const linkStyle = css({
  color: 'accent',
  textDecoration: 'underline',
  fontSize: 'sm',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
})

type ViewerToolbarProps = {
  document: LibraryDocument
  fileUrl: string
  /** The page counter of a drawn PDF; null for a document shown as text. */
  pages: { page: number; total: number; zoom: number } | null
  onGoToPage: (page: number) => void
  /** A PDF's − and + (the machine keeps the zoom within its steps). */
  onZoom: (by: 1 | -1) => void
  /** "Ask about this document" (D70), offered for a ready document. */
  onAskAbout?: ((document: { id: string; name: string }) => void) | undefined
}

/** The document's name, where it comes from, and what can be done with it. */
export function ViewerToolbar({
  document,
  fileUrl,
  pages,
  onGoToPage,
  onZoom,
  onAskAbout,
}: ViewerToolbarProps) {
  const driveLink = safeExternalLink(document.webViewLink)
  return (
    <header className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', minW: '0' })}>
      <a href={paths.docs} className={linkStyle}>
        ← Documents
      </a>
      {/* One line, cut with an ellipsis (the whole name in its title): below 12rem the actions wrap
          to the next line instead of squeezing the name into a column of letters. */}
      <h1
        title={document.name}
        className={css({
          fontSize: 'lg',
          fontWeight: 'semibold',
          flex: '1 1 12rem',
          minW: 'min(12rem, 100%)',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
        })}
      >
        {document.name}
      </h1>
      {pages ? <PageControls {...pages} onGoToPage={onGoToPage} /> : null}
      {pages ? <ZoomControls zoom={pages.zoom} onZoom={onZoom} /> : null}
      {driveLink ? (
        <a href={driveLink} target="_blank" rel="noopener noreferrer" className={linkStyle}>
          Open in Google Drive
        </a>
      ) : null}
      <a href={fileUrl} download className={linkStyle}>
        Download
      </a>
      {onAskAbout && document.status === 'ready' ? (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onAskAbout({ id: document.id, name: document.name })}
        >
          Ask about this document
        </Button>
      ) : null}
    </header>
  )
}

function PageControls({
  page,
  total,
  onGoToPage,
}: {
  page: number
  total: number
  onGoToPage: (page: number) => void
}) {
  const [typed, setTyped] = useState<string | null>(null)
  return (
    <nav
      aria-label="Pages"
      className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1', fontSize: 'sm' })}
    >
      <Button variant="ghost" size="sm" disabled={page <= 1} onClick={() => onGoToPage(page - 1)}>
        Previous page
      </Button>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (typed !== null && Number(typed) >= 1) onGoToPage(Number(typed))
          setTyped(null)
        }}
        className={css({ display: 'flex', alignItems: 'center', gap: '1' })}
      >
        <label className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
          Page
          <input
            inputMode="numeric"
            value={typed ?? String(page)}
            onChange={(event) => setTyped(event.target.value.replace(/\D/g, ''))}
            onBlur={() => setTyped(null)}
            className={css({
              w: '3.5rem',
              px: '1',
              py: '0.5',
              borderWidth: '1px',
              borderColor: 'border',
              borderRadius: 'md',
              bg: 'surface',
              textAlign: 'center',
            })}
          />
        </label>
        <span className={css({ whiteSpace: 'nowrap' })}>of {total}</span>
      </form>
      <Button variant="ghost" size="sm" disabled={page >= total} onClick={() => onGoToPage(page + 1)}>
        Next page
      </Button>
    </nav>
  )
}

/** − and + around the zoom in per cent of the width that fits ("100 %"): a phone's page is small. */
function ZoomControls({ zoom, onZoom }: { zoom: number; onZoom: (by: 1 | -1) => void }) {
  return (
    <fieldset
      aria-label="Zoom"
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '1',
        fontSize: 'sm',
        border: 'none',
        p: '0',
        m: '0',
      })}
    >
      <Button
        variant="ghost"
        size="sm"
        aria-label="Zoom out"
        disabled={zoom <= MIN_ZOOM}
        onClick={() => onZoom(-1)}
      >
        −
      </Button>
      <output
        aria-live="polite"
        className={css({ minW: '3.5rem', textAlign: 'center' })}
      >{`${Math.round(zoom * 100)} %`}</output>
      <Button
        variant="ghost"
        size="sm"
        aria-label="Zoom in"
        disabled={zoom >= MAX_ZOOM}
        onClick={() => onZoom(1)}
      >
        +
      </Button>
    </fieldset>
  )
}
