/**
 * Where an in-process benchmark keeps its data: embedded PGlite in a scratch directory (as
 * `npm start` runs it), or, with BENCH_DATABASE_URL naming a PostgreSQL server (a role with
 * CREATEDB), a fresh database there, dropped at the end. Also the CPU time of this process's
 * document reader processes (/proc, Linux), which the benchmarks add to their own.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'

export type BenchDatabase = {
  /** The settings loadConfig takes. */
  env: Record<string, string>
  /** What it is, for the report. */
  label: string
  drop: () => Promise<void>
}

export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `docchat-bench-${name}-`))
  const server = process.env.BENCH_DATABASE_URL
  if (!server) {
    return {
      env: { DATA_DIR: dir },
      label: `PGlite in ${dir}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const database = `docchat_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`create database ${database}`)
  await admin.end()
  const url = new URL(server)
  url.pathname = `/${database}`
  return {
    env: { DATA_DIR: dir, DATABASE_URL: url.toString() },
    label: `PostgreSQL at ${url.host} (database ${database})`,
    drop: async () => {
      const again = new pg.Client({ connectionString: server })
      await again.connect()
      await again.query(`drop database if exists ${database} with (force)`)
      await again.end()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * CPU seconds (user + system) used so far by the processes running now that `matches` picks, by
 * their /proc/<pid>/stat (Linux): the command's name, the parent's pid, and the pid itself.
 */
function processCpuSeconds(matches: (name: string, parent: number, pid: string) => boolean): number {
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      if (!matches(name, Number(fields[1]), pid)) continue
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // ended meanwhile
    }
  }
  return ticks / 100
}

/** CPU seconds (user + system) the reader processes of this process have used so far. */
export const readerCpuSeconds = () =>
  processCpuSeconds(
    (_name, parent, pid) =>
      parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('reader-process.ts'),
  )

/**
 * CPU seconds (user + system) the PostgreSQL server's processes on this machine have used so far
 * (those running now: a pool's backends live as long as the benchmark); 0 where there is none.
 */
export const postgresCpuSeconds = () => processCpuSeconds((name) => name.startsWith('postgres'))

/** CPU seconds (user + system) this process has used so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}
