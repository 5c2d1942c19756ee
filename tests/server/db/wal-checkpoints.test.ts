import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startWalCheckpoints } from '#server/db/wal-checkpoints.ts'

let client: PGlite
beforeAll(async () => {
  client = new PGlite()
  await client.waitReady
  await client.query('create table filler (id serial primary key, body text not null)')
})
afterAll(async () => {
  await client.close()
})

const redo = async () =>
  (await client.query<{ redo: string }>('select redo_lsn::text as redo from pg_control_checkpoint()')).rows[0]
    ?.redo
/** Writes about `mb` megabytes of log. */
const write = (mb: number) =>
  client.query(
    `insert into filler (body) select repeat(md5(g::text), 32) from generate_series(1, ${mb * 1000}) as g`,
  )

test('PGlite has no checkpointer: after a megabyte of log a checkpoint is taken (D96)', async () => {
  const checkpoints = startWalCheckpoints(client, { everyMs: 3_600_000, bytes: 1024 * 1024, idleTicks: 1000 })
  try {
    const before = await redo()
    await checkpoints.tick()
    expect(await redo()).toBe(before)
    await write(2)
    // Nothing checkpoints on its own...
    expect(await redo()).toBe(before)
    // ...until the check sees the log grown past its bound.
    await checkpoints.tick()
    const after = await redo()
    expect(after).not.toBe(before)
    await checkpoints.tick()
    expect(await redo()).toBe(after)
  } finally {
    checkpoints.stop()
  }
})

test('a little log is checkpointed too, at the idle tick', async () => {
  const checkpoints = startWalCheckpoints(client, {
    everyMs: 3_600_000,
    bytes: 1024 * 1024 * 1024,
    idleTicks: 3,
  })
  try {
    const before = await redo()
    await client.query(`insert into filler (body) values ('a row')`)
    await checkpoints.tick()
    await checkpoints.tick()
    expect(await redo()).toBe(before)
    await checkpoints.tick()
    expect(await redo()).not.toBe(before)
  } finally {
    checkpoints.stop()
  }
})
