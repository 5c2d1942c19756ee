/**
 * A repository as a set of plain query functions that each take the database first, bound to one
 * database: `bindDb(db, { findConversation, listMessages })` answers
 * `{ findConversation(userId, id), listMessages(userId, id) }`. Each query stays a function of its
 * own (readable and measured alone) and one repository can gather queries from several files,
 * while its callers keep calling `chats.findConversation(...)` (D108).
 */
import type { Db } from './database.ts'

// `never[]`: any query taking the database first fits, whatever else it takes.
type Query<D> = (db: D, ...args: never[]) => unknown
type Queries<D> = Record<string, Query<D>>

export type Bound<D, Q extends Queries<D>> = {
  [K in keyof Q]: Q[K] extends (db: D, ...args: infer A) => infer R ? (...args: A) => R : never
}

export function bindDb<Q extends Queries<Db>, D extends Db = Db>(db: D, queries: Q): Bound<D, Q> {
  return Object.fromEntries(
    Object.entries(queries).map(([name, query]) => [name, (...args: never[]) => query(db, ...args)]),
  ) as Bound<D, Q>
}
