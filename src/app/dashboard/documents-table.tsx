// biome-ignore-all lint/a11y/noRedundantRoles: on a phone the table is drawn as cards (CSS display), which makes some browsers drop its table semantics; the explicit roles keep it a table for screen readers.
import { Menu } from '@ark-ui/react/menu'
import { Link } from 'wouter'
import type { DocumentRow, RowStatus, SortColumn } from '#machines/documents/documents-table.ts'
import { STATUS_LABELS } from '#machines/documents/documents-table.ts'
import { Button } from '#src/components/ui/button.tsx'
import { MoreIcon } from '#src/components/ui/dashboard-icons.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { documentPath } from '#src/lib/document-path.ts'
import { formatModified } from '#src/lib/format-date.ts'
import { menu } from '#src/theme/menu.ts'
import { css, cx } from '../../../styled-system/css'
import type { DocumentsTableApi } from './use-documents-table.ts'

/** Static classes (Panda extracts them at build time): the status word's colour. */
const STATUS_CLASSES: Record<RowStatus, string> = {
  queued: css({ color: 'muted' }),
  processing: css({ color: 'accent' }),
  ready: css({ color: 'text' }),
  failed: css({ color: 'danger' }),
  skipped: css({ color: 'muted' }),
  notInLibrary: css({ color: 'muted' }),
}

// On a phone there is no room for six columns: each row is a card, its cells lines of it. The
// elements keep their table roles (explicit below), so a screen reader still reads a table.
const tableStyle = css({
  w: 'full',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  display: { base: 'block', md: 'table' },
  '& tbody': { display: { base: 'flex', md: 'table-row-group' }, flexDirection: 'column', gap: '3' },
})
const headStyle = css({ display: { base: 'none', md: 'table-header-group' } })
const headerCellStyle = css({
  textAlign: 'left',
  fontWeight: 'semibold',
  color: 'muted',
  px: '3',
  py: '2',
  borderBottomWidth: '1px',
  borderColor: 'border',
  whiteSpace: 'nowrap',
})
const rowStyle = css({
  display: { base: 'grid', md: 'table-row' },
  gridTemplateColumns: '1fr auto',
  gap: '1',
  p: { base: '3', md: '0' },
  bg: { base: 'surface', md: 'transparent' },
  borderWidth: { base: '1px', md: '0' },
  borderColor: 'border',
  borderRadius: { base: 'xl', md: 'none' },
  '& > td': {
    md: { px: '3', py: '2.5', borderBottomWidth: '1px', borderColor: 'border', verticalAlign: 'top' },
  },
})
// On a phone the source, type and date read as one line under the name instead (phoneMetaStyle).
const metaCellStyle = css({
  display: { base: 'none', md: 'table-cell' },
  color: 'muted',
  whiteSpace: 'nowrap',
})
const nameLinkStyle = css({ color: 'accent', textDecoration: 'underline', _hover: { color: 'accentHover' } })
const phoneMetaStyle = css({ display: { base: 'block', md: 'none' }, color: 'muted', fontWeight: 'normal' })

const COLUMNS: { label: string; sort?: SortColumn }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Source' },
  { label: 'Type' },
  { label: 'Modified', sort: 'modified' },
  { label: 'Status', sort: 'status' },
  { label: 'Actions' },
]

/**
 * The library and the Drive listing as one table (D89): name, source, readable type, modified,
 * status with its reason, and each row's actions (the spec's 'Download' for a Drive file, Retry
 * for one that failed; "Ask about this document" and Delete, asked first, behind its menu). A
 * ready document can be selected to ask about with others (D70). A page of PAGE_SIZE rows at a time.
 */
export function DocumentsTable({ table }: { table: DocumentsTableApi }) {
  const { page, view, confirming } = table
  return (
    <>
      <table className={tableStyle} role="table" aria-label="Documents" aria-rowcount={page.total + 1}>
        <thead className={headStyle} role="rowgroup">
          <tr role="row">
            {COLUMNS.map(({ label, sort }) => (
              <th
                key={label}
                role="columnheader"
                scope="col"
                className={headerCellStyle}
                aria-sort={sort && view.sort.column === sort ? view.sort.direction : undefined}
              >
                {sort ? (
                  <button
                    type="button"
                    onClick={() => table.sort(sort)}
                    className={css({ fontWeight: 'semibold', cursor: 'pointer', _hover: { color: 'text' } })}
                  >
                    {label}
                    <span aria-hidden="true">
                      {view.sort.column === sort ? (view.sort.direction === 'ascending' ? ' ↑' : ' ↓') : ''}
                    </span>
                  </button>
                ) : label === 'Actions' ? (
                  <span className={css({ srOnly: true })}>{label}</span>
                ) : (
                  label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {page.rows.map((row, i) => (
            <DocumentRowView key={row.key} row={row} index={page.from + i} table={table} />
          ))}
        </tbody>
      </table>
      <Pager table={table} />
      {confirming ? (
        <Dialog
          title="Delete document"
          onClose={table.cancelDelete}
          finalFocus={() => document.getElementById(menuTriggerId(confirming.libraryId))}
          footer={
            <>
              <Button variant="secondary" onClick={table.cancelDelete}>
                Cancel
              </Button>
              <Button variant="danger" onClick={table.confirmDelete}>
                Delete
              </Button>
            </>
          }
        >
          <p>
            {`Delete “${confirming.name}” from your library? The assistant will no longer answer from it. A file from Google Drive stays in your Drive; you can add it back later.`}
          </p>
        </Dialog>
      ) : null}
    </>
  )
}

function DocumentRowView({
  row,
  index,
  table,
}: {
  row: DocumentRow
  index: number
  table: DocumentsTableApi
}) {
  const nameId = `document-${row.key}`
  const source = row.source === 'drive' ? 'Google Drive' : 'Uploaded'
  const modified = row.modified ? formatModified(row.modified) : '—'
  return (
    <tr role="row" aria-rowindex={index + 1} className={rowStyle}>
      <td role="cell" className={css({ gridColumn: '1', fontWeight: 'medium', overflowWrap: 'anywhere' })}>
        <span className={css({ display: 'flex', alignItems: 'baseline', gap: '2' })}>
          {askable(row) ? (
            <SelectBox row={row} libraryId={row.libraryId} nameId={nameId} table={table} />
          ) : null}
          <span id={nameId}>
            {/* A document that was read opens in the viewer (D72). */}
            {row.status === 'ready' && row.libraryId ? (
              <Link href={documentPath(row.libraryId)} className={nameLinkStyle}>
                {row.name}
              </Link>
            ) : (
              row.name
            )}
          </span>
        </span>
        <span className={phoneMetaStyle}>{[source, row.type, modified].join(' · ')}</span>
      </td>
      <td role="cell" className={metaCellStyle}>
        {source}
      </td>
      <td role="cell" className={metaCellStyle}>
        {row.type}
      </td>
      <td role="cell" className={metaCellStyle}>
        {row.modified ? <time dateTime={row.modified}>{modified}</time> : modified}
      </td>
      <td role="cell" className={css({ gridColumn: '1' })}>
        <span className={cx(css({ fontWeight: 'medium' }), STATUS_CLASSES[row.status])}>
          {STATUS_LABELS[row.status]}
        </span>
        {row.reason ? <span className={css({ color: 'muted' })}>{`: ${row.reason}`}</span> : null}
        {row.details ? <span className={css({ color: 'muted' })}>{` · ${row.details}`}</span> : null}
      </td>
      <td
        role="cell"
        className={css({
          gridColumn: '2',
          gridRow: '1 / span 5',
          alignSelf: 'start',
          whiteSpace: { md: 'nowrap' },
        })}
      >
        <RowActions row={row} nameId={nameId} table={table} />
      </td>
    </tr>
  )
}

/** A ready library document: it can be asked about (D70). */
function askable(row: DocumentRow): row is DocumentRow & { libraryId: string } {
  return row.libraryId !== null && row.status === 'ready'
}

/**
 * Selects the document to ask about with others. Named by the document's name (so the row is
 * still named by its file first), described by what it does.
 */
function SelectBox({
  row,
  libraryId,
  nameId,
  table,
}: {
  row: DocumentRow
  libraryId: string
  nameId: string
  table: DocumentsTableApi
}) {
  return (
    <input
      type="checkbox"
      aria-labelledby={nameId}
      title={`Select ${row.name} to ask about it with other documents`}
      checked={table.selected.includes(libraryId)}
      onChange={(event) => table.select(libraryId, event.target.checked)}
      className={css({
        flexShrink: '0',
        w: '4',
        h: '4',
        alignSelf: 'center',
        accentColor: 'accent',
        cursor: 'pointer',
      })}
    />
  )
}

/** The spec's 'Download' and Retry in sight; the rest ("Ask about this document", Delete) behind the row's menu. */
function RowActions({ row, nameId, table }: { row: DocumentRow; nameId: string; table: DocumentsTableApi }) {
  const open = table.menuFor === row.key
  const deletable = row.libraryId !== null && row.status !== 'skipped'
  return (
    <div
      className={css({
        display: 'flex',
        flexWrap: { base: 'wrap', md: 'nowrap' },
        gap: '1',
        justifyContent: 'flex-end',
        position: 'relative',
      })}
    >
      {row.driveFileId ? (
        <Button
          variant="secondary"
          size="sm"
          aria-describedby={nameId}
          onClick={() => row.driveFileId && table.download(row.driveFileId)}
        >
          Download
        </Button>
      ) : null}
      {row.status === 'failed' && row.libraryId ? (
        <Button
          variant="secondary"
          size="sm"
          aria-describedby={nameId}
          onClick={() => row.libraryId && table.retry(row.libraryId)}
        >
          Retry
        </Button>
      ) : null}
      {deletable || askable(row) ? (
        <Menu.Root
          open={open}
          onOpenChange={(details) => (details.open ? table.openMenu(row.key) : table.closeMenu())}
          ids={{ trigger: menuTriggerId(row.libraryId ?? row.key) }}
          aria-label={`Actions for ${row.name}`}
          loopFocus
          positioning={{ placement: 'bottom-end', gutter: 4 }}
          // Drawn when opened: a page of 50 rows carries no 50 hidden menus.
          lazyMount
          unmountOnExit
        >
          <Menu.Trigger asChild>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`More actions for ${row.name}`}
              className={css({ h: '8', w: '8' })}
            >
              <MoreIcon size={16} />
            </Button>
          </Menu.Trigger>
          <Menu.Positioner className={menu.positioner}>
            <Menu.Content className={menu.content}>
              {askable(row) ? (
                <Menu.Item
                  value="ask"
                  className={menu.item}
                  onSelect={() => table.askAbout(row.libraryId, row.name)}
                >
                  Ask about this document
                </Menu.Item>
              ) : null}
              {deletable ? (
                <Menu.Item
                  value="delete"
                  data-tone="danger"
                  className={menu.item}
                  onSelect={() => row.libraryId && table.askDelete(row.libraryId, row.name)}
                >
                  Delete
                </Menu.Item>
              ) : null}
            </Menu.Content>
          </Menu.Positioner>
        </Menu.Root>
      ) : null}
    </div>
  )
}

/** The id of a row's "More actions" button: the Delete dialog gives the focus back to it. */
const menuTriggerId = (key: string) => `document-actions-${key}`

/** "Showing 1–50 of 5,000", with Previous and Next while there is more than one page. */
function Pager({ table }: { table: DocumentsTableApi }) {
  const { page } = table
  const count = new Intl.NumberFormat()
  return (
    <nav
      aria-label="Document pages"
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '2',
        flexWrap: 'wrap',
        mt: '3',
        fontSize: 'sm',
      })}
    >
      <p role="status" className={css({ color: 'muted', mr: 'auto' })}>
        {`Showing ${count.format(page.from)}–${count.format(page.to)} of ${count.format(page.total)}`}
      </p>
      {page.pages > 1 ? (
        <>
          <Button
            variant="secondary"
            size="sm"
            disabled={page.page === 0}
            onClick={() => table.turnPage(page.page - 1)}
          >
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={page.page >= page.pages - 1}
            onClick={() => table.turnPage(page.page + 1)}
          >
            Next
          </Button>
        </>
      ) : null}
    </nav>
  )
}
