/**
 * What an assistant may read (issue 36): the person's documents, found with a search box, and
 * the connected Drive's folders as a tree (a folder includes its subfolders, and follows them).
 * A chosen folder that Drive no longer has says so: that part of the knowledge is empty.
 */
import { useId, useState } from 'react'
import type { DriveFolder, KnowledgeRequest } from '#contracts/assistants.ts'
import type { PickableDocument } from '#machines/assistants/assistant-editor-machine.ts'
import { inlineInput } from '#src/theme/inline-input.ts'
import { css } from '../../../styled-system/css'

type KnowledgePickerProps = {
  value: KnowledgeRequest
  onChange: (value: KnowledgeRequest) => void
  documents: PickableDocument[]
  /** null: Drive's folders could not be listed (`foldersProblem` says why). */
  folders: DriveFolder[] | null
  foldersProblem: string | null
  /** false: this server has no Google Drive (D133); folders are offered only to remove ones chosen before. */
  driveOnServer: boolean
  /** The chosen folders Drive no longer has. */
  missingFolders: { id: string; name: string }[]
  error?: string
}

const boxStyle = css({
  maxH: '15rem',
  overflowY: 'auto',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  p: '2',
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
})
const optionStyle = css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', py: '0.5' })
const groupTitleStyle = css({ fontSize: 'sm', fontWeight: 'semibold' })
const hintStyle = css({ fontSize: 'xs', color: 'muted' })

const toggled = (ids: string[], id: string, on: boolean) =>
  on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)

export function KnowledgePicker(props: KnowledgePickerProps) {
  const { value, onChange, error } = props
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>Knowledge</legend>
      <DocumentChoices
        documents={props.documents}
        chosen={value.documentIds}
        onToggle={(id, on) => onChange({ ...value, documentIds: toggled(value.documentIds, id, on) })}
      />
      {props.driveOnServer || value.folderIds.length > 0 ? (
        <FolderChoices
          folders={props.folders}
          problem={
            props.driveOnServer
              ? `${props.foldersProblem ?? ''} Connect Google Drive in Integrations to choose folders.`
              : 'This server has no Google Drive connection, so these folders add nothing; remove them.'
          }
          missing={props.missingFolders.filter((f) => value.folderIds.includes(f.id))}
          chosen={value.folderIds}
          onToggle={(id, on) => onChange({ ...value, folderIds: toggled(value.folderIds, id, on) })}
        />
      ) : null}
      {error ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

type ChoicesProps = { chosen: string[]; onToggle: (id: string, on: boolean) => void }

function DocumentChoices({ documents, chosen, onToggle }: ChoicesProps & { documents: PickableDocument[] }) {
  const [query, setQuery] = useState('')
  const titleId = useId()
  const shown = documents.filter((d) => d.name.toLowerCase().includes(query.trim().toLowerCase()))
  return (
    <section
      aria-labelledby={titleId}
      className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
    >
      <h2 id={titleId} className={groupTitleStyle}>
        Documents <span className={hintStyle}>({chosen.length} chosen)</span>
      </h2>
      {documents.length === 0 ? (
        <p className={hintStyle}>Your library has no documents yet.</p>
      ) : (
        <>
          <input
            type="search"
            aria-label="Search your documents"
            placeholder="Search your documents"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            className={inlineInput}
          />
          <div className={boxStyle}>
            {shown.length === 0 ? <p className={hintStyle}>No document matches “{query.trim()}”.</p> : null}
            {shown.map((document) => (
              <label key={document.id} className={optionStyle}>
                <input
                  type="checkbox"
                  checked={chosen.includes(document.id)}
                  onChange={(event) => onToggle(document.id, event.target.checked)}
                />
                {document.name}
              </label>
            ))}
          </div>
        </>
      )}
    </section>
  )
}

type FolderChoicesProps = ChoicesProps & {
  folders: DriveFolder[] | null
  problem: string | null
  missing: { id: string; name: string }[]
}

function FolderChoices({ folders, problem, missing, chosen, onToggle }: FolderChoicesProps) {
  const titleId = useId()
  return (
    <section
      aria-labelledby={titleId}
      className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
    >
      <h2 id={titleId} className={groupTitleStyle}>
        Google Drive folders <span className={hintStyle}>({chosen.length} chosen)</span>
      </h2>
      <p className={hintStyle}>
        A folder includes its subfolders, and files added to it later join the knowledge.
      </p>
      {missing.map((folder) => (
        <div key={folder.id} role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
          The folder “{folder.name}” is gone from your Google Drive, so this part of the knowledge is empty.{' '}
          <button
            type="button"
            className={css({ textDecoration: 'underline', cursor: 'pointer' })}
            onClick={() => onToggle(folder.id, false)}
          >
            Remove it
          </button>
        </div>
      ))}
      {folders === null ? (
        <p className={hintStyle}>{problem}</p>
      ) : folders.length === 0 ? (
        <p className={hintStyle}>Your Google Drive has no folders.</p>
      ) : (
        <div className={boxStyle}>
          <FolderTree folders={folders} parentId={null} chosen={chosen} onToggle={onToggle} />
        </div>
      )}
    </section>
  )
}

function FolderTree({
  folders,
  parentId,
  chosen,
  onToggle,
}: ChoicesProps & { folders: DriveFolder[]; parentId: string | null }) {
  const known = new Set(folders.map((f) => f.id))
  // A folder whose parent is not listed (shared with the person, or below an unlisted one) is at the top.
  const level = folders.filter((f) =>
    parentId === null ? f.parentId === null || !known.has(f.parentId) : f.parentId === parentId,
  )
  if (level.length === 0) return null
  return (
    // Nested lists of checkboxes: Tab and Space are the keys (a role="tree" would owe arrow keys).
    <ul
      aria-label={parentId === null ? 'Drive folders' : undefined}
      className={css({
        pl: parentId === null ? '0' : '5',
        display: 'flex',
        flexDirection: 'column',
        gap: '1',
      })}
    >
      {level.map((folder) => (
        <li key={folder.id}>
          <label className={optionStyle}>
            <input
              type="checkbox"
              checked={chosen.includes(folder.id)}
              onChange={(event) => onToggle(folder.id, event.target.checked)}
            />
            {folder.name}
          </label>
          <FolderTree folders={folders} parentId={folder.id} chosen={chosen} onToggle={onToggle} />
        </li>
      ))}
    </ul>
  )
}
