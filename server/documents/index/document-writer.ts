/**
 * The document writer (`app.writer`, D91): every document a job reads goes into the index through
 * here, in bounded transactions that several documents share.
 * - Throughput: documents waiting at the same time are written together, a few statements per
 *   transaction whatever their number (a first sync of 500 small files is a few dozen
 *   transactions, not 500 of a dozen statements each).
 * - Yielding: no transaction carries more than `batchPassages` passages' worth of work. A larger
 *   document is written in parts, and a large version it replaces is taken out in parts first;
 *   between two transactions everybody else's queries run (PGlite has one connection, and its
 *   statements run on the server's own thread).
 * - Turns: each transaction is filled round-robin across the people with documents waiting, so one
 *   person's large files never keep another's small one waiting for more than one transaction.
 * A document with a library row is written only while that row is in the library (locked in the
 * same transaction, which also marks it ready), so a deletion while the file was read never leaves
 * passages behind; `null` then. A document written in parts is searchable part by part; one that
 * fits in a transaction replaces its previous version at once, as before.
 * - Giving way (D94): while another person's request is being answered (`others`, from
 *   request-activity.ts), a transaction is kept to about YIELD_TRANSACTION_MS and the next one
 *   waits for that request, at most PAUSE_FACTOR times as long as the last one took: on PGlite a
 *   statement holds the server's thread, so the other person's click waits for one short
 *   transaction at most, and the writer keeps at least a quarter of the time while they keep it
 *   busy. Alone, it writes full batches.
 * The language pass (D82) re-indexes a document's passages in their own languages through here
 * too (`relabel`), part by part like a large write, in the same turns.
 */
import type { Db } from '../../db/database.ts'
import type { Others } from '../../http/request-activity.ts'
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
  tokenCount,
  upsertDocuments,
} from './passage-writes-repository.ts'
import {
  addTotals,
  dropEmptiedTerms,
  type Emptied,
  endParts,
  lockStatistics,
} from './statistics-repository.ts'

/**
 * Passages per transaction. Bigger batches cost fewer statements per document (throughput);
 * smaller ones hold the database for less time at once (others' requests): chosen with
 * bench/drive-sync.ts and bench/fair-share.ts (bench/RESULTS.md).
 */
export const BATCH_PASSAGES = 256
/** Documents per transaction, however small: bounds one statement's size. */
const MAX_BATCH_DOCUMENTS = 64
/**
 * How long a transaction with room left waits for documents on their way (see gather), on
 * PGlite, where each statement costs about a millisecond of the server's own thread. On a
 * PostgreSQL server a transaction's own statements cost far less, and a shorter wait
 * (LINGER_MS_POSTGRES) lets the jobs waiting in it go sooner (D97).
 */
export const LINGER_MS = 40
export const LINGER_MS_POSTGRES = 10
const LINGER_STEP_MS = 5
/**
 * While others are being served: a transaction's target length. A statement of PGlite holds the
 * server's thread for its whole length, so this is what another person's request may wait for.
 */
export const YIELD_TRANSACTION_MS = 15
/** Passages per transaction while giving way, at least (each transaction has statements of its own). */
const MIN_YIELD_PASSAGES = 4
/**
 * A writer giving way waits for the request being answered at most this many times as long as
 * its last transaction took: a person who keeps the server busy without a pause has three
 * quarters of its time, the writer a quarter, never none (a sign-in's few statements, with a
 * password check between them, mostly fit in one wait).
 */
const PAUSE_FACTOR = 3
/** How often a writer that gives way looks whether the other person's request was answered. */
const PAUSE_STEP_MS = 2

export type DocumentWrite = {
  document: DocumentInput
  /** Its passages, each with its language (languages.ts: withLanguages). */
  chunks: readonly IndexedChunk[]
  /** The library row the document belongs to, and what to show on it once written. */
  library?: LibraryOutcome
}

export type WrittenDocument = { documentId: string; chunkCount: number }

export type DocumentWriter = ReturnType<typeof createDocumentWriter>

/** Where a task stands between two transactions. */
type State = {
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

type Task = State & {
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
type Draft = { task: Task; size: number; state: State; done?: WrittenDocument | null }

const sameDocument = (a: DocumentKey, b: DocumentKey) =>
  a.userId === b.userId && a.source === b.source && a.externalId === b.externalId

export function createDocumentWriter({
  db,
  batchPassages = BATCH_PASSAGES,
  coming = () => 0,
  others = () => 'none',
  lingerMs = LINGER_MS,
}: {
  db: Db
  batchPassages?: number
  /** The longest a transaction with room left waits for documents on their way. */
  lingerMs?: number
  /** How many documents may be on their way to the writer (the jobs running): it waits for them a little. */
  coming?: () => number
  /**
   * Whether people other than those whose documents wait are being served (request-activity.ts):
   * then the writer gives way (D94). Not given: it never does (tests, benches, PostgreSQL).
   */
  others?: (owners: ReadonlySet<string>) => Others
}) {
  /** Each person's tasks, oldest first; the map's order is the round-robin's. */
  const queues = new Map<string, Task[]>()
  let draining = false
  /** What writing one passage took lately (a moving average, ms), to size a transaction that gives way. */
  let msPerPassage = 2
  /** How long the last transaction took (ms): the longest a writer giving way waits. */
  let lastTransactionMs = YIELD_TRANSACTION_MS

  function enqueue(task: Task): void {
    const queue = queues.get(task.owner)
    if (queue) queue.push(task)
    else queues.set(task.owner, [task])
    if (draining) return
    draining = true
    void drain()
  }

  const total = (task: Task) => task.write?.chunks.length ?? task.languages.length
  /** Fits in one transaction of `limit` passages whole: written at once, not in parts. */
  const whole = (task: Task, limit: number) =>
    task.kind === 'write' && task.phase === 'start' && total(task) <= limit

  /** The passages a task's next step takes of the `room` left (a document counts one at least). */
  function sizeOf(task: Task, room: number, limit: number): number {
    if (task.kind === 'languages') return Math.max(1, Math.min(total(task) - task.next, room))
    if (task.kind !== 'write' || task.phase === 'old') return room
    if (whole(task, limit)) return Math.max(1, total(task))
    return Math.max(1, Math.min(total(task) - task.next, room))
  }

  /**
   * The next transaction's work: people in turn, one step of one task each per round, until the
   * passages or documents run out. A task waits while an earlier one of the same document is
   * unfinished; one that failed in company goes alone. `limit`: the transaction's passages.
   */
  function takeBatch(limit: number): { task: Task; size: number }[] {
    const items: { task: Task; size: number }[] = []
    const taken = new Set<Task>()
    const served = new Set<string>()
    let room = limit
    let full = false
    while (!full) {
      let progress = false
      for (const [owner, queue] of queues) {
        const task = queue.find(
          (t, i) => !taken.has(t) && !queue.slice(0, i).some((earlier) => sameDocument(earlier.key, t.key)),
        )
        if (!task || (task.solo && items.length > 0)) continue
        const size = sizeOf(task, room, limit)
        // A whole document that does not fit waits for the next transaction, and so does a part
        // too small to be worth its statements.
        if (items.length > 0 && (whole(task, limit) ? size > room : room < limit / 4)) {
          full = true
          break
        }
        items.push({ task, size })
        taken.add(task)
        served.add(owner)
        room -= size
        progress = true
        if (task.solo || room <= 0 || items.length >= MAX_BATCH_DOCUMENTS) {
          full = true
          break
        }
      }
      if (!progress) break
    }
    // Whoever was served goes to the back of the round.
    for (const owner of served) {
      const queue = queues.get(owner)
      if (!queue) continue
      queues.delete(owner)
      queues.set(owner, queue)
    }
    return items
  }

  function settle(task: Task, outcome: { done: WrittenDocument | null } | { error: unknown }): void {
    const queue = queues.get(task.owner)
    if (queue) {
      queue.splice(queue.indexOf(task), 1)
      if (queue.length === 0) queues.delete(task.owner)
    }
    if ('error' in outcome) task.reject(outcome.error)
    else task.resolve(outcome.done)
  }

  /** Writes until nothing waits; `draining` is cleared in the same turn the queues are found empty. */
  async function drain(): Promise<void> {
    try {
      await drainQueues()
    } finally {
      draining = false
    }
  }

  /** Passages waiting to be written (or taken out) now. */
  function waitingWork(): number {
    let work = 0
    for (const queue of queues.values())
      for (const task of queue)
        work += task.kind === 'write' || task.kind === 'languages' ? total(task) - task.next : batchPassages
    return work
  }

  /** Tasks waiting now. */
  function waitingTasks(): number {
    let total = 0
    for (const queue of queues.values()) total += queue.length
    return total
  }

  /**
   * Group commit: while other documents are on their way (`coming`: the jobs running) and the
   * batch is far from full, wait a little for them, up to `lingerMs`. One transaction for ten
   * documents costs about a third of ten transactions (its own statements cost as much as a few
   * documents' passages; bench/RESULTS.md).
   */
  async function gather(): Promise<void> {
    const until = performance.now() + lingerMs
    while (
      performance.now() < until &&
      waitingTasks() < Math.min(coming(), MAX_BATCH_DOCUMENTS) &&
      waitingWork() < batchPassages / 2
    )
      await new Promise((resolve) => setTimeout(resolve, LINGER_STEP_MS))
  }

  /**
   * The next transaction's passages: a full batch when nobody else is being served; otherwise
   * about YIELD_TRANSACTION_MS of work, after waiting for the request being answered (D94).
   */
  async function giveWay(): Promise<number> {
    const owners = new Set(queues.keys())
    let state = others(owners)
    if (state === 'none') return batchPassages
    const until = performance.now() + PAUSE_FACTOR * lastTransactionMs
    while (state === 'waiting' && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_STEP_MS))
      state = others(owners)
    }
    const fits = Math.floor(YIELD_TRANSACTION_MS / msPerPassage)
    return Math.min(batchPassages, Math.max(MIN_YIELD_PASSAGES, fits))
  }

  async function drainQueues(): Promise<void> {
    while (queues.size > 0) {
      await gather()
      const limit = await giveWay()
      const items = takeBatch(limit)
      if (items.length === 0) return
      let drafts: Draft[]
      try {
        const started = performance.now()
        drafts = await db.transaction((tx) => runBatch(tx, items, limit))
        lastTransactionMs = performance.now() - started
        const passages = items.reduce((sum, item) => sum + item.size, 0)
        if (passages > 0) msPerPassage = 0.7 * msPerPassage + 0.3 * (lastTransactionMs / passages)
      } catch (error) {
        const [only] = items
        if (only && items.length === 1) settle(only.task, { error })
        else for (const { task } of items) task.solo = true
        continue
      }
      for (const { task, state, done } of drafts) {
        Object.assign(task, state)
        if (done !== undefined) settle(task, { done })
      }
      // Whoever waits for the database (a request, another part) goes before the next batch.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /**
   * One transaction of at most `limit` passages: the steps of the batch's tasks, worked out on
   * drafts (applied once it commits).
   */
  async function runBatch(
    tx: Db,
    items: readonly { task: Task; size: number }[],
    limit: number,
  ): Promise<Draft[]> {
    const drafts: Draft[] = items.map(({ task, size }) => ({
      task,
      size,
      state: { kind: task.kind, phase: task.phase, documentId: task.documentId, next: task.next },
    }))
    const pending = (d: Draft) => d.done === undefined
    const deltas = new Map<string, { chunks: number; documents: number; tokens: number }>()
    const delta = (userId: string, change: { chunks?: number; documents?: number; tokens?: number }) => {
      const d = deltas.get(userId) ?? { chunks: 0, documents: 0, tokens: 0 }
      deltas.set(userId, {
        chunks: d.chunks + (change.chunks ?? 0),
        documents: d.documents + (change.documents ?? 0),
        tokens: d.tokens + (change.tokens ?? 0),
      })
    }
    const emptied: Emptied[] = []
    const ended: string[] = []
    const forget = (removed: Awaited<ReturnType<typeof removePassages>>) => {
      for (const [userId, a] of removed.byUser) delta(userId, { chunks: -a.chunks, tokens: -a.tokens })
      emptied.push(...removed.emptied)
    }

    // 1. Writes whose library row went (deleted while the file was read) write nothing more.
    const present = await lockLibraryRows(
      tx,
      drafts.flatMap(({ task }) =>
        task.kind === 'write' && task.write?.library ? [task.write.library.id] : [],
      ),
    )
    for (const d of drafts) {
      const library = d.task.kind === 'write' ? d.task.write?.library : undefined
      if (!library || present.has(library.id)) continue
      if (d.state.documentId === null) d.done = null
      else d.state = { ...d.state, kind: 'discard', phase: 'old' }
    }
    await lockStatistics(
      tx,
      drafts.map((d) => d.task.owner),
    )

    // 2. Documents begun: their rows; a small previous version goes at once, a large one in parts.
    const starting = drafts.filter((d) => pending(d) && d.state.kind === 'write' && d.state.phase === 'start')
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
      if (document.inserted) delta(d.task.owner, { documents: 1 })
      d.state.documentId = document.documentId
      d.state.phase = document.oldChunks > limit ? 'old' : 'new'
      if (document.oldChunks > 0 && document.oldChunks <= limit) replaced.push(document.documentId)
    })
    if (replaced.length > 0) {
      forget(await removePassages(tx, replaced))
      ended.push(...replaced)
    }

    // 3. Passages out, one part per task that planned it.
    for (const d of drafts) {
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
      forget(part)
      if (part.left === 0) ended.push(d.state.documentId)
      if (d.state.kind === 'write') {
        if (part.left === 0) d.state.phase = 'new'
      } else if (d.state.kind === 'discard') {
        if (part.left > 0) continue
        if (await deleteDocumentRow(tx, d.state.documentId)) delta(d.task.owner, { documents: -1 })
        d.done = null
      } else if (part.left <= batchPassages) d.done = null
    }

    // 4. Passages re-indexed in their languages (the language pass, D82), one part per task, while
    // the document still waits for it: a write since wrote them in their languages already.
    for (const d of drafts) {
      if (!pending(d) || d.state.kind !== 'languages' || d.state.documentId === null) continue
      const documentId = d.state.documentId
      const from = await lockLanguagesFrom(tx, documentId)
      if (from === null) {
        d.done = null
        continue
      }
      const passages = d.task.languages
      const end = Math.min(passages.length, d.state.next + d.size)
      emptied.push(...(await relabelPassages(tx, documentId, passages.slice(d.state.next, end))))
      d.state.next = end
      const rest = passages[end]
      await setLanguagesFrom(tx, documentId, rest ? rest.ordinal : null)
      if (rest) continue
      ended.push(documentId)
      d.done = { documentId, chunkCount: passages.length }
    }

    // 5. Passages in: whole documents and parts, in one statement.
    const slices: (PassageSlice & { draft: Draft; end: number })[] = []
    for (const d of drafts) {
      if (!pending(d) || d.state.kind !== 'write' || d.state.phase !== 'new' || d.task.phase === 'old')
        continue
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
      delta(d.task.owner, { chunks: chunks.length, tokens: words.reduce((sum, n) => sum + n, 0) })
      d.state.next = end
      if (end < write.chunks.length) continue
      if (parted) ended.push(documentId)
      if (write.library) ready.push({ ...write.library, chunks: write.chunks.length })
      d.done = { documentId, chunkCount: write.chunks.length }
    }

    await endParts(tx, ended)
    await dropEmptiedTerms(tx, emptied)
    await addTotals(tx, deltas)
    await markLibraryReady(tx, ready)
    return drafts
  }

  const task = (
    key: DocumentKey,
    kind: 'write' | 'shrink' | 'languages',
    write: DocumentWrite | null,
    relabel: { documentId: string; passages: readonly PassageLanguage[] } | null = null,
  ) =>
    new Promise<WrittenDocument | null>((resolve, reject) =>
      enqueue({
        owner: key.userId,
        key,
        kind,
        write,
        languages: relabel?.passages ?? [],
        words: write?.chunks.map((c) => tokenCount(c.heading, c.text)) ?? [],
        phase: kind === 'write' ? 'start' : 'old',
        documentId: relabel?.documentId ?? null,
        next: 0,
        solo: false,
        resolve,
        reject,
      }),
    )

  return {
    /** Writes the document (replacing its previous version); null when its library row went meanwhile. */
    write: (write: DocumentWrite) => task(write.document, 'write', write),

    /**
     * Takes a document's passages out, part by part, until at most one transaction's worth is
     * left: what removes it then (in a transaction of its own) stays short.
     */
    async shrink(key: DocumentKey): Promise<void> {
      await task(key, 'shrink', null)
    },

    /**
     * Re-indexes a document's passages in these languages (the language pass, D82: `passages`
     * are those from where it stands, in ordinal order), part by part, remembering in the
     * document how far it got; null when the document no longer waits for it (written again or
     * removed meanwhile).
     */
    relabel: (key: DocumentKey, documentId: string, passages: readonly PassageLanguage[]) =>
      task(key, 'languages', null, { documentId, passages }),
  }
}
