import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { DataDirLockedError, lockDataDir } from '#server/db/data-dir-lock.ts'

const freshDir = () => mkdtempSync(join(tmpdir(), 'docchat-lock-'))

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  return Number(child.stdout.trim())
}

test('a lock left by a process that no longer runs is taken over at once', async () => {
  const dir = freshDir()
  writeFileSync(join(dir, 'server.lock'), JSON.stringify({ pid: deadPid(), startTime: '1', id: 'old' }))
  const release = await lockDataDir(dir)
  expect(JSON.parse(readFileSync(join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid)
  await release()
  expect(existsSync(join(dir, 'server.lock'))).toBe(false)
})

test('a half-written lock file, or the old lock directory, is taken over', async () => {
  const garbled = freshDir()
  writeFileSync(join(garbled, 'server.lock'), '{"pid": 12')
  await (await lockDataDir(garbled))()

  const oldStyle = freshDir()
  mkdirSync(join(oldStyle, 'server.lock'))
  await (await lockDataDir(oldStyle))()
})

test('a lock held by a running process refuses the second server', async () => {
  const dir = freshDir()
  // The parent of this test process is alive; no start time recorded: trust the pid.
  writeFileSync(join(dir, 'server.lock'), JSON.stringify({ pid: process.ppid, startTime: null, id: 'live' }))
  await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError)
})

test('a running process with another start time is a recycled pid: its old lock is taken over', async () => {
  const dir = freshDir()
  writeFileSync(
    join(dir, 'server.lock'),
    JSON.stringify({ pid: process.ppid, startTime: '1', id: 'recycled' }),
  )
  const canTell = existsSync(`/proc/${process.ppid}/stat`)
  if (!canTell) return
  await (await lockDataDir(dir))()
})

test('the same directory twice in one process is refused until released', async () => {
  const dir = freshDir()
  const release = await lockDataDir(dir)
  await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError)
  await release()
  await (await lockDataDir(dir))()
})
