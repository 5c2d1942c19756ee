/**
 * Facade for the Documents table (D89): the library's documents and the Drive listing merged into
 * rows (documents-table.ts), the person's view of them (the table machine), and the intents of
 * each row, carried out by the documents actor (Retry, Delete, the ready documents selected), the
 * drive actor (the spec's 'Download') and the chat actor ("Ask about this document", D70). Lives
 * in src/app: it combines the documents, drive and chat features. The table's actor and the
 * documents actor are the dashboard wiring actor's children: a confirmed deletion reaches the
 * documents actor through it (D112).
 */
import { useMemo } from 'react'
import type { LibraryDocument } from '#contracts/documents.ts'
import type { SortColumn, StatusFilter, TableView } from '#machines/documents/documents-table.ts'
import { pageOfSorted, sortRows, toRows, typesOf } from '#machines/documents/documents-table.ts'
import { useAskAbout } from '#src/features/chat/use-ask-about.ts'
import { DocumentsActor } from '#src/features/documents/documents-actor.ts'
import { DocumentsTableActor } from '#src/features/documents/documents-table-actor.ts'
import { DriveActor } from '#src/features/drive/drive-actor.ts'

const NO_FILES: never[] = []

export function useDocumentsTable() {
  const table = DocumentsTableActor.useActorRef()
  const library = DocumentsActor.useActorRef()
  const drive = DriveActor.useActorRef()
  const documents = DocumentsActor.useSelector((snapshot) => snapshot.context.library?.documents ?? NO_FILES)
  const removed = DocumentsActor.useSelector((snapshot) => snapshot.context.library?.removed ?? NO_FILES)
  const files = DriveActor.useSelector((snapshot) => snapshot.context.files ?? NO_FILES)
  const view = DocumentsTableActor.useSelector((snapshot) => snapshot.context.view)
  const selected = DocumentsActor.useSelector((snapshot) => snapshot.context.selected)
  const askAbout = useAskAbout()
  const rows = useMemo(() => toRows(documents, files, removed), [documents, files, removed])
  // Sorted once per library read or sort change, not per keystroke (bench/documents-table.ts).
  const sorted = useMemo(() => sortRows(rows, view.sort), [rows, view.sort])
  const page = useMemo(() => pageOfSorted(sorted, view), [sorted, view])
  const types = useMemo(() => typesOf(rows), [rows])

  return {
    /** Every file, before the view's search and filters. */
    all: rows,
    page,
    view,
    types,
    /** No document is in the library yet, but Drive lists some: the first ingest is the thing to do. */
    beforeFirstIngest: documents.length === 0 && rows.length > 0,
    menuFor: DocumentsTableActor.useSelector((snapshot) => snapshot.context.menuFor),
    confirming: DocumentsTableActor.useSelector((snapshot) => snapshot.context.confirming),
    search(query: string) {
      table.send({ type: 'table.search', query })
    },
    filterStatus(status: StatusFilter) {
      table.send({ type: 'table.filter', status })
    },
    filterSource(source: TableView['source']) {
      table.send({ type: 'table.filter', source })
    },
    filterType(typeLabel: string) {
      table.send({ type: 'table.filter', typeLabel })
    },
    clearFilters() {
      table.send({ type: 'table.search', query: '' })
      table.send({ type: 'table.filter', status: 'all', source: 'all', typeLabel: 'all' })
    },
    sort(column: SortColumn) {
      table.send({ type: 'table.sort', column })
    },
    /** The phone's sort menu: a column and a direction at once. */
    sortBy(column: SortColumn, direction: TableView['sort']['direction']) {
      if (view.sort.column !== column) table.send({ type: 'table.sort', column })
      const after = table.getSnapshot().context.view.sort
      if (after.direction !== direction) table.send({ type: 'table.sort', column })
    },
    turnPage(to: number) {
      table.send({ type: 'table.page', page: to })
    },
    openMenu(key: string) {
      table.send({ type: 'table.openMenu', key })
    },
    closeMenu() {
      table.send({ type: 'table.closeMenu' })
    },
    askDelete(libraryId: string, name: string) {
      table.send({ type: 'table.askDelete', libraryId, name })
    },
    cancelDelete() {
      table.send({ type: 'table.cancelDelete' })
    },
    confirmDelete() {
      table.send({ type: 'table.confirmDelete' })
    },
    /** Ready library documents chosen to ask about together, in the order chosen (D70). */
    selected,
    select(libraryId: string, chosen: boolean) {
      library.send({ type: 'documents.select', id: libraryId, selected: chosen })
    },
    clearSelection() {
      library.send({ type: 'documents.clearSelection' })
    },
    /** "Ask about this document": a new chat limited to this one, on screen. */
    askAbout(libraryId: string, name: string) {
      table.send({ type: 'table.closeMenu' })
      askAbout([{ id: libraryId, name }])
    },
    /** A new chat limited to the selected documents (the selection is done with). */
    askAboutSelected() {
      askAbout(namedInOrder(documents, selected))
      library.send({ type: 'documents.clearSelection' })
    },
    retry(libraryId: string) {
      library.send({ type: 'documents.retry', id: libraryId })
    },
    /** The spec's 'Download': call it straight from the click (the tab opens in it). */
    download(driveFileId: string) {
      drive.send({ type: 'drive.download', fileId: driveFileId })
    },
  }
}

/** The documents `ids` names, in that order, with their names. */
function namedInOrder(documents: readonly LibraryDocument[], ids: readonly string[]) {
  const byId = new Map(documents.map((d) => [d.id, d]))
  return ids.flatMap((id) => {
    const found = byId.get(id)
    return found ? [{ id, name: found.name }] : []
  })
}

export type DocumentsTableApi = ReturnType<typeof useDocumentsTable>
