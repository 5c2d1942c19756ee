/**
 * One transaction of the document writer (document-writer.ts, D91): the steps of a batch's tasks,
 * worked out on drafts that the writer applies once the transaction commits. The writer decides
 * which tasks and how many passages go into a transaction; this file, what one transaction does.
 */
import type { Db } from '../../db/database.ts'
import {
  type DocumentInput,
  type DocumentKey,
  deleteDocumentRow,
  findDocumentId,
  type IndexedChunk,
  insertPassages,
  type LibraryOutcome,
  lockLanguagesFrom,
  lockLibraryRows,
  markLibraryReady,
  type PassageLanguage,
  type PassageSlice,
  passageCount,
  relabelPassages,
  removePassages,
  setLanguagesFrom,
  upsertDocuments,
} from './passage-writes-repository.ts'
import {
  addTotals,
  dropEmptiedTerms,
  type Emptied,
  endParts,
  lockStatistics,
} from './statistics-repository.ts'

export type DocumentWrite = {
  document: DocumentInput
  /** Its passages, each with its language (languages.ts: withLanguages). */
  chunks: readonly IndexedChunk[]
  /** The library row the document belongs to, and what to show on it once written. */
  library?: LibraryOutcome
}

export type WrittenDocument = { documentId: string; chunkCount: number }

/** Where a task stands between two transactions. */
export type State = {
  /**
   * write: the document goes in; shrink: its passages go out until one transaction's worth is
   * left; discard: a write whose library row went: what it wrote goes, its row too; languages:
   * its passages are re-indexed in their languages (`languages`, from `next`).
   */
  kind: 'write' | 'shrink' | 'discard' | 'languages'
  /** start: untouched; old: a previous version goes out, part by part; new: passages go in from `next`. */
  phase: 'start' | 'old' | 'new'
  documentId: string | null
  next: number
}

export type Task = State & {
  owner: string
  key: DocumentKey
  write: DocumentWrite | null
  /** A relabel's passages (ordinal order) with their languages; empty for the other kinds. */
  languages: readonly PassageLanguage[]
  /** Each passage's length in words, worked out once. */
  words: number[]
  /** Failed inside a shared transaction: runs alone, so that its failure is only its own. */
  solo: boolean
  resolve: (value: WrittenDocument | null) => void
  reject: (error: unknown) => void
}

/** One task's step in a transaction: planned `size` (passages), its state as it will be, its outcome once over. */
export type Draft = { task: Task; size: number; state: State; done?: WrittenDocument | null }

/** What one transaction keeps as its steps go: the drafts, each person's change of totals, the lexemes emptied, the documents whose parts are over. */
type Batch = {
  tx: Db
  limit: number
  batchPassages: number
  drafts: Draft[]
  deltas: Map<string, { chunks: number; documents: number; tokens: number }>
  emptied: Emptied[]
  ended: string[]
}

const pending = (d: Draft) => d.done === undefined

function delta(b: Batch, userId: string, change: { chunks?: number; documents?: number; tokens?: number }) {
  const d = b.deltas.get(userId) ?? { chunks: 0, documents: 0, tokens: 0 }
  b.deltas.set(userId, {
    chunks: d.chunks + (change.chunks ?? 0),
    documents: d.documents + (change.documents ?? 0),
    tokens: d.tokens + (change.tokens ?? 0),
  })
}

function forget(b: Batch, removed: Awaited<ReturnType<typeof removePassages>>) {
  for (const [userId, a] of removed.byUser) delta(b, userId, { chunks: -a.chunks, tokens: -a.tokens })
  b.emptied.push(...removed.emptied)
}

/**
 * One transaction of at most `limit` passages: the steps of the batch's tasks, worked out on
 * drafts (applied once it commits).
 */
export async function runBatch(
  tx: Db,
  items: readonly { task: Task; size: number }[],
  limit: number,
  batchPassages: number,
): Promise<Draft[]> {
  const b: Batch = {
    tx,
    limit,
    batchPassages,
    drafts: items.map(({ task, size }) => ({
      task,
      size,
      state: { kind: task.kind, phase: task.phase, documentId: task.documentId, next: task.next },
    })),
    deltas: new Map(),
    emptied: [],
    ended: [],
  }
  await leaveGoneRows(b)
  await beginDocuments(b)
  await passagesOut(b)
  await relabelLanguages(b)
  const ready = await passagesIn(b)
  await endParts(tx, b.ended)
  await dropEmptiedTerms(tx, b.emptied)
  await addTotals(tx, b.deltas)
  await markLibraryReady(tx, ready)
  return b.drafts
}

/** Writes whose library row went (deleted while the file was read) write nothing more; then the statistics of everyone in the batch are locked, in one order. */
async function leaveGoneRows(b: Batch): Promise<void> {
  const { tx } = b
  // 1. Writes whose library row went (deleted while the file was read) write nothing more.
  const present = await lockLibraryRows(
    tx,
    b.drafts.flatMap(({ task }) =>
      task.kind === 'write' && task.write?.library ? [task.write.library.id] : [],
    ),
  )
  for (const d of b.drafts) {
    const library = d.task.kind === 'write' ? d.task.write?.library : undefined
    if (!library || present.has(library.id)) continue
    if (d.state.documentId === null) d.done = null
    else d.state = { ...d.state, kind: 'discard', phase: 'old' }
  }
  await lockStatistics(
    tx,
    b.drafts.map((d) => d.task.owner),
  )
}

/** Documents begun: their rows; a small previous version goes at once, a large one in parts. */
async function beginDocuments(b: Batch): Promise<void> {
  const { tx, limit } = b
  // 2. Documents begun: their rows; a small previous version goes at once, a large one in parts.
  const starting = b.drafts.filter((d) => pending(d) && d.state.kind === 'write' && d.state.phase === 'start')
  const opened = await upsertDocuments(
    tx,
    starting.map(({ task }) => ({
      ...(task.write as DocumentWrite).document,
      tokenCount: task.words.reduce((sum, n) => sum + n, 0),
    })),
  )
  const replaced: string[] = []
  starting.forEach((d, i) => {
    const document = opened[i]
    if (!document) return
    if (document.inserted) delta(b, d.task.owner, { documents: 1 })
    d.state.documentId = document.documentId
    d.state.phase = document.oldChunks > limit ? 'old' : 'new'
    if (document.oldChunks > 0 && document.oldChunks <= limit) replaced.push(document.documentId)
  })
  if (replaced.length > 0) {
    forget(b, await removePassages(tx, replaced))
    b.ended.push(...replaced)
  }
}

/** Passages out, one part per task that planned it (a shrink, an old version, a discard). */
async function passagesOut(b: Batch): Promise<void> {
  const { tx, limit, batchPassages } = b
  // 3. Passages out, one part per task that planned it.
  for (const d of b.drafts) {
    const planned =
      d.task.kind === 'shrink' ||
      (d.task.kind === 'write' && d.task.phase === 'old') ||
      d.state.kind === 'discard'
    if (!pending(d) || !planned) continue
    d.state.documentId ??= await findDocumentId(tx, d.task.key)
    if (d.state.documentId === null) {
      d.done = null
      continue
    }
    let count = Math.max(d.size, limit / 4)
    if (d.state.kind === 'shrink') {
      count = Math.min(count, (await passageCount(tx, d.state.documentId)) - batchPassages)
      if (count <= 0) {
        d.done = null
        continue
      }
    }
    const part = await removePassages(tx, [d.state.documentId], count)
    forget(b, part)
    if (part.left === 0) b.ended.push(d.state.documentId)
    if (d.state.kind === 'write') {
      if (part.left === 0) d.state.phase = 'new'
    } else if (d.state.kind === 'discard') {
      if (part.left > 0) continue
      if (await deleteDocumentRow(tx, d.state.documentId)) delta(b, d.task.owner, { documents: -1 })
      d.done = null
    } else if (part.left <= batchPassages) d.done = null
  }
}

/** Passages re-indexed in their languages (the language pass, D82), one part per task. */
async function relabelLanguages(b: Batch): Promise<void> {
  const { tx } = b
  // 4. Passages re-indexed in their languages (the language pass, D82), one part per task, while
  // the document still waits for it: a write since wrote them in their languages already.
  for (const d of b.drafts) {
    if (!pending(d) || d.state.kind !== 'languages' || d.state.documentId === null) continue
    const documentId = d.state.documentId
    const from = await lockLanguagesFrom(tx, documentId)
    if (from === null) {
      d.done = null
      continue
    }
    const passages = d.task.languages
    const end = Math.min(passages.length, d.state.next + d.size)
    b.emptied.push(...(await relabelPassages(tx, documentId, passages.slice(d.state.next, end))))
    d.state.next = end
    const rest = passages[end]
    await setLanguagesFrom(tx, documentId, rest ? rest.ordinal : null)
    if (rest) continue
    b.ended.push(documentId)
    d.done = { documentId, chunkCount: passages.length }
  }
}

/** Passages in: whole documents and parts in one statement; answers the library rows now ready. */
async function passagesIn(b: Batch): Promise<(LibraryOutcome & { chunks: number })[]> {
  const { tx } = b
  // 5. Passages in: whole documents and parts, in one statement.
  const slices: (PassageSlice & { draft: Draft; end: number })[] = []
  for (const d of b.drafts) {
    if (!pending(d) || d.state.kind !== 'write' || d.state.phase !== 'new' || d.task.phase === 'old') continue
    const write = d.task.write as DocumentWrite
    const end = Math.min(write.chunks.length, d.state.next + d.size)
    slices.push({
      draft: d,
      end,
      documentId: d.state.documentId as string,
      userId: d.task.owner,
      chunks: write.chunks.slice(d.state.next, end),
      words: d.task.words.slice(d.state.next, end),
      parted: d.state.next > 0 || end < write.chunks.length,
    })
  }
  await insertPassages(tx, slices)
  const ready: (LibraryOutcome & { chunks: number })[] = []
  for (const { draft: d, end, chunks, words, parted, documentId } of slices) {
    const write = d.task.write as DocumentWrite
    delta(b, d.task.owner, { chunks: chunks.length, tokens: words.reduce((sum, n) => sum + n, 0) })
    d.state.next = end
    if (end < write.chunks.length) continue
    if (parted) b.ended.push(documentId)
    if (write.library) ready.push({ ...write.library, chunks: write.chunks.length })
    d.done = { documentId, chunkCount: write.chunks.length }
  }
  return ready
}
