import type { DocumentStatus, LibraryDocument } from '#contracts/documents.ts'
import { FileIcon } from '#src/components/ui/dashboard-icons.tsx'
import { chip as chipStyle } from '#src/theme/chip.ts'
import { css } from '../../../styled-system/css'

/** Where an attached file's reading stands, when it is not simply ready. */
const PENDING: Partial<Record<DocumentStatus, string>> = {
  queued: 'waiting to be read',
  processing: 'being read',
  failed: 'could not be read',
  skipped: 'not read',
}

/** The files uploaded into the conversation on screen, above it (D88); nothing when there are none. */
export function ConversationFiles({ files }: { files: LibraryDocument[] }) {
  if (files.length === 0) return null
  return (
    <ul
      aria-label="Files in this conversation"
      className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', pb: '3', fontSize: 'sm' })}
    >
      {files.map((file) => (
        <li key={file.id} className={chipStyle}>
          <FileIcon size={14} />
          <span className={css({ truncate: true, minW: '0' })}>{file.name}</span>
          {PENDING[file.status] ? (
            <span className={css({ color: 'muted', whiteSpace: 'nowrap' })}>
              ({PENDING[file.status]}
              {file.reason ? `: ${file.reason}` : ''})
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
