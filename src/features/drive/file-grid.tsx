import { useId } from 'react'
import type { DriveFile } from '#contracts/drive.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { DocumentIcon } from '#src/components/ui/icons.tsx'
import { css } from '../../../styled-system/css'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** Drive's RFC 3339 time as a date in the reader's locale; anything unparsable as it came. */
export function formatModified(modifiedTime: string): string {
  const date = new Date(modifiedTime)
  return Number.isNaN(date.getTime()) ? modifiedTime : dateFormat.format(date)
}

type FileGridProps = { files: DriveFile[]; onDownload: (fileId: string) => void }

/** product §2: a responsive grid of files, each with name, mime type, 'Modified: date' and 'Download'. */
export function FileGrid({ files, onDownload }: FileGridProps) {
  return (
    <ul
      aria-label="Drive files"
      className={css({
        display: 'grid',
        gap: '4',
        gridTemplateColumns: 'repeat(auto-fill, minmax(15rem, 1fr))',
      })}
    >
      {files.map((file) => (
        <FileCard key={file.id} file={file} onDownload={onDownload} />
      ))}
    </ul>
  )
}

function FileCard({ file, onDownload }: { file: DriveFile; onDownload: (fileId: string) => void }) {
  const nameId = useId()
  return (
    <li aria-labelledby={nameId}>
      <Card className={css({ display: 'flex', flexDirection: 'column', gap: '3', h: 'full' })}>
        <div className={css({ display: 'flex', alignItems: 'flex-start', gap: '3', minW: '0' })}>
          <span className={css({ color: 'accent', flexShrink: 0, mt: '0.5' })}>
            <DocumentIcon size={20} />
          </span>
          <div className={css({ minW: '0' })}>
            <h2 id={nameId} className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
              {file.name}
            </h2>
            <p className={css({ fontSize: 'sm', color: 'muted', overflowWrap: 'anywhere' })}>
              {file.mimeType}
            </p>
            <p className={css({ fontSize: 'sm', color: 'muted' })}>
              Modified: {formatModified(file.modifiedTime)}
            </p>
          </div>
        </div>
        <Button
          variant="secondary"
          size="sm"
          className={css({ mt: 'auto', alignSelf: 'flex-start' })}
          aria-describedby={nameId}
          onClick={() => onDownload(file.id)}
        >
          Download
        </Button>
      </Card>
    </li>
  )
}
