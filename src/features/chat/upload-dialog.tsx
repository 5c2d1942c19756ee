import { useRef } from 'react'
import { UPLOAD_ACCEPT } from '#machines/upload/upload-rules.ts'
import { Button } from '#src/components/ui/button.tsx'
import { FileIcon, UploadIcon } from '#src/components/ui/dashboard-icons.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { css } from '../../../styled-system/css'
import { UPLOAD_EXPLANATIONS, UPLOAD_EXPLANATIONS_WITHOUT_DRIVE, type Upload } from './use-upload.ts'

const dropZoneStyle = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '3',
  p: '6',
  borderWidth: '2px',
  borderStyle: 'dashed',
  borderColor: 'borderStrong',
  borderRadius: 'xl',
  bg: 'surfaceMuted',
  textAlign: 'center',
  color: 'muted',
})

/**
 * product §2 Upload dialog: the rules, a drop area or 'Browse File', the chosen name, and two
 * buttons; one ('Upload') on a server without Google Drive, where 'Upload to Drive' could never work (D133).
 */
export function UploadDialog({ upload, driveOffered }: { upload: Upload; driveOffered: boolean }) {
  const picker = useRef<HTMLInputElement>(null)
  const explanations = driveOffered ? UPLOAD_EXPLANATIONS : UPLOAD_EXPLANATIONS_WITHOUT_DRIVE
  const footer = (
    <>
      {driveOffered ? (
        <Button variant="secondary" disabled={!upload.ready} onClick={() => upload.submit('drive')}>
          {upload.uploadingToDrive ? 'Uploading to Drive...' : 'Upload to Drive'}
        </Button>
      ) : null}
      <Button disabled={!upload.ready} onClick={() => upload.submit('chat')}>
        {upload.uploading ? 'Uploading...' : 'Upload'}
      </Button>
    </>
  )
  return (
    <Dialog title="Upload File" onClose={upload.close} footer={footer}>
      <p className={css({ fontSize: 'sm' })}>{explanations[upload.place]}</p>
      <ul className={css({ fontSize: 'sm', color: 'muted', listStyle: 'disc', pl: '5' })}>
        <li>Allowed types: PDF and Text</li>
        <li>Minimum size: 10KB</li>
        <li>Maximum size: 5MB</li>
      </ul>
      {/* Dropping is a shortcut for the mouse; 'Browse File' is the way for everyone. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the button inside is the accessible path */}
      <div
        data-testid="drop-zone"
        className={dropZoneStyle}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault()
          upload.choose(event.dataTransfer.files[0])
        }}
      >
        <UploadIcon size={28} />
        <p>Drag and drop your file here, or</p>
        <Button variant="secondary" size="sm" onClick={() => picker.current?.click()}>
          Browse File
        </Button>
        <input
          ref={picker}
          type="file"
          accept={UPLOAD_ACCEPT}
          hidden
          tabIndex={-1}
          aria-label="File to upload"
          onChange={(event) => upload.choose(event.target.files?.[0])}
        />
      </div>
      {upload.fileName ? (
        <p
          className={css({
            display: 'flex',
            alignItems: 'center',
            gap: '2',
            fontSize: 'sm',
            overflowWrap: 'anywhere',
          })}
        >
          <FileIcon size={16} />
          {upload.fileName}
        </p>
      ) : null}
      {upload.notice ? (
        <p role="status" className={css({ fontSize: 'sm', color: 'text' })}>
          {upload.notice}
        </p>
      ) : null}
      {upload.error ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
          {upload.error}
        </p>
      ) : null}
    </Dialog>
  )
}
