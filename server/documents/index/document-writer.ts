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
import { type DocumentKey, type PassageLanguage, tokenCount } from './passage-writes-repository.ts'
import { type DocumentWrite, type Draft, runBatch, type Task, type WrittenDocument } from './write-batch.ts'

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

export type DocumentWriter = ReturnType<typeof createDocumentWriter>

export type DocumentWriterOptions = {
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
}

/** One writer's settings and what it keeps between transactions, shared by the functions below. */
type Writer = Required<DocumentWriterOptions> & {
  /** Each person's tasks, oldest first; the map's order is the round-robin's. */
  queues: Map<string, Task[]>
  draining: boolean
  /** What writing one passage took lately (a moving average, ms), to size a transaction that gives way. */
  msPerPassage: number
  /** How long the last transaction took (ms): the longest a writer giving way waits. */
  lastTransactionMs: number
}

const sameDocument = (a: DocumentKey, b: DocumentKey) =>
  a.userId === b.userId && a.source === b.source && a.externalId === b.externalId

export function createDocumentWriter({
  db,
  batchPassages = BATCH_PASSAGES,
  coming = () => 0,
  others = () => 'none',
  lingerMs = LINGER_MS,
}: DocumentWriterOptions) {
  const writer: Writer = {
    db,
    batchPassages,
    coming,
    others,
    lingerMs,
    queues: new Map(),
    draining: false,
    msPerPassage: 2,
    lastTransactionMs: YIELD_TRANSACTION_MS,
  }
  return {
    /** Writes the document (replacing its previous version); null when its library row went meanwhile. */
    write: (write: DocumentWrite) => queueTask(writer, write.document, 'write', write),

    /**
     * Takes a document's passages out, part by part, until at most one transaction's worth is
     * left: what removes it then (in a transaction of its own) stays short.
     */
    async shrink(key: DocumentKey): Promise<void> {
      await queueTask(writer, key, 'shrink', null)
    },

    /**
     * Re-indexes a document's passages in these languages (the language pass, D82: `passages`
     * are those from where it stands, in ordinal order), part by part, remembering in the
     * document how far it got; null when the document no longer waits for it (written again or
     * removed meanwhile).
     */
    relabel: (key: DocumentKey, documentId: string, passages: readonly PassageLanguage[]) =>
      queueTask(writer, key, 'languages', null, { documentId, passages }),
  }
}

/** Queues one step of work for a document; settles once it is done (or failed). */
function queueTask(
  writer: Writer,
  key: DocumentKey,
  kind: 'write' | 'shrink' | 'languages',
  write: DocumentWrite | null,
  relabel: { documentId: string; passages: readonly PassageLanguage[] } | null = null,
): Promise<WrittenDocument | null> {
  return new Promise<WrittenDocument | null>((resolve, reject) =>
    enqueue(writer, {
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
}

function enqueue(writer: Writer, task: Task): void {
  const queue = writer.queues.get(task.owner)
  if (queue) queue.push(task)
  else writer.queues.set(task.owner, [task])
  if (writer.draining) return
  writer.draining = true
  void drain(writer)
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
function takeBatch(queues: Map<string, Task[]>, limit: number): { task: Task; size: number }[] {
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

function settle(
  queues: Map<string, Task[]>,
  task: Task,
  outcome: { done: WrittenDocument | null } | { error: unknown },
): void {
  const queue = queues.get(task.owner)
  if (queue) {
    queue.splice(queue.indexOf(task), 1)
    if (queue.length === 0) queues.delete(task.owner)
  }
  if ('error' in outcome) task.reject(outcome.error)
  else task.resolve(outcome.done)
}

/** Writes until nothing waits; `draining` is cleared in the same turn the queues are found empty. */
async function drain(writer: Writer): Promise<void> {
  try {
    await drainQueues(writer)
  } finally {
    writer.draining = false
  }
}

/** Passages waiting to be written (or taken out) now. */
function waitingWork({ queues, batchPassages }: Writer): number {
  let work = 0
  for (const queue of queues.values())
    for (const task of queue)
      work += task.kind === 'write' || task.kind === 'languages' ? total(task) - task.next : batchPassages
  return work
}

/** Tasks waiting now. */
function waitingTasks(queues: Map<string, Task[]>): number {
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
async function gather(writer: Writer): Promise<void> {
  const until = performance.now() + writer.lingerMs
  while (
    performance.now() < until &&
    waitingTasks(writer.queues) < Math.min(writer.coming(), MAX_BATCH_DOCUMENTS) &&
    waitingWork(writer) < writer.batchPassages / 2
  )
    await new Promise((resolve) => setTimeout(resolve, LINGER_STEP_MS))
}

/**
 * The next transaction's passages: a full batch when nobody else is being served; otherwise
 * about YIELD_TRANSACTION_MS of work, after waiting for the request being answered (D94).
 */
async function giveWay(writer: Writer): Promise<number> {
  const owners = new Set(writer.queues.keys())
  let state = writer.others(owners)
  if (state === 'none') return writer.batchPassages
  const until = performance.now() + PAUSE_FACTOR * writer.lastTransactionMs
  while (state === 'waiting' && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_STEP_MS))
    state = writer.others(owners)
  }
  const fits = Math.floor(YIELD_TRANSACTION_MS / writer.msPerPassage)
  return Math.min(writer.batchPassages, Math.max(MIN_YIELD_PASSAGES, fits))
}

async function drainQueues(writer: Writer): Promise<void> {
  const { db, queues, batchPassages } = writer
  while (queues.size > 0) {
    await gather(writer)
    const limit = await giveWay(writer)
    const items = takeBatch(queues, limit)
    if (items.length === 0) return
    let drafts: Draft[]
    try {
      const started = performance.now()
      drafts = await db.transaction((tx) => runBatch(tx, items, limit, batchPassages))
      writer.lastTransactionMs = performance.now() - started
      const passages = items.reduce((sum, item) => sum + item.size, 0)
      if (passages > 0)
        writer.msPerPassage = 0.7 * writer.msPerPassage + 0.3 * (writer.lastTransactionMs / passages)
    } catch (error) {
      const [only] = items
      if (only && items.length === 1) settle(queues, only.task, { error })
      else for (const { task } of items) task.solo = true
      continue
    }
    for (const { task, state, done } of drafts) {
      Object.assign(task, state)
      if (done !== undefined) settle(queues, task, { done })
    }
    // Whoever waits for the database (a request, another part) goes before the next batch.
    await new Promise((resolve) => setImmediate(resolve))
  }
}
