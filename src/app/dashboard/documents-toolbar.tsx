import type { SortColumn, StatusFilter, TableView } from '#machines/documents/documents-table.ts'
import { STATUS_LABELS } from '#machines/documents/documents-table.ts'
import { SearchIcon } from '#src/components/ui/dashboard-icons.tsx'
import { css, cx } from '../../../styled-system/css'
import type { DocumentsTableApi } from './use-documents-table.ts'

const fieldStyle = css({
  h: '10',
  px: '3',
  bg: 'surface',
  color: 'text',
  borderWidth: '1px',
  borderColor: 'borderStrong',
  borderRadius: 'lg',
  fontSize: 'sm',
  w: 'full',
  minW: '0',
})
const labelStyle = css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'xs', color: 'muted' })

const STATUS_OPTIONS: [StatusFilter, string][] = [
  ['all', 'All statuses'],
  ['ready', STATUS_LABELS.ready],
  ['reading', 'Queued or reading'],
  ['failed', STATUS_LABELS.failed],
  ['skipped', STATUS_LABELS.skipped],
  ['notInLibrary', STATUS_LABELS.notInLibrary],
]

const SORT_OPTIONS: [string, string][] = [
  ['modified:descending', 'Newest first'],
  ['modified:ascending', 'Oldest first'],
  ['name:ascending', 'Name, A to Z'],
  ['name:descending', 'Name, Z to A'],
  ['status:ascending', 'Needs attention first'],
]

/**
 * Search as you type and the filters (status, source, type); on a phone, where the table has no
 * column headers, the sort too.
 */
export function DocumentsToolbar({ table }: { table: DocumentsTableApi }) {
  const { view } = table
  return (
    <search
      aria-label="Find documents"
      className={css({
        display: 'grid',
        gap: '3',
        mb: '4',
        gridTemplateColumns: {
          base: 'repeat(2, minmax(0, 1fr))',
          md: 'minmax(12rem, 2fr) repeat(3, minmax(8rem, 1fr))',
        },
      })}
    >
      <label
        className={css({
          gridColumn: { base: '1 / -1', md: 'auto' },
          position: 'relative',
          alignSelf: 'end',
        })}
      >
        <span className={css({ srOnly: true })}>Search documents</span>
        <span
          className={css({
            position: 'absolute',
            left: '3',
            top: '50%',
            transform: 'translateY(-50%)',
            color: 'muted',
          })}
        >
          <SearchIcon size={16} />
        </span>
        <input
          type="search"
          placeholder="Search documents..."
          value={view.query}
          onChange={(event) => table.search(event.target.value)}
          className={cx(fieldStyle, css({ w: 'full', pl: '9' }))}
        />
      </label>
      <label className={labelStyle}>
        Status
        <select
          value={view.status}
          onChange={(event) => table.filterStatus(event.target.value as StatusFilter)}
          className={fieldStyle}
        >
          {STATUS_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className={labelStyle}>
        Source
        <select
          value={view.source}
          onChange={(event) => table.filterSource(event.target.value as TableView['source'])}
          className={fieldStyle}
        >
          <option value="all">All sources</option>
          <option value="drive">Google Drive</option>
          <option value="upload">Uploaded</option>
        </select>
      </label>
      <label className={labelStyle}>
        Type
        <select
          value={view.type}
          onChange={(event) => table.filterType(event.target.value)}
          className={fieldStyle}
        >
          <option value="all">All types</option>
          {table.types.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <label className={cx(labelStyle, css({ md: { display: 'none' } }))}>
        Sort
        <select
          value={`${view.sort.column}:${view.sort.direction}`}
          onChange={(event) => {
            const [column, direction] = event.target.value.split(':') as [
              SortColumn,
              TableView['sort']['direction'],
            ]
            table.sortBy(column, direction)
          }}
          className={fieldStyle}
        >
          {SORT_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </search>
  )
}
