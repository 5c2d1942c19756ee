/**
 * PostgreSQL LISTEN/NOTIFY between the app's instances (D39): one dedicated connection
 * listens, and `publish` is a `pg_notify` on the pool. A notification reaches every listening
 * instance, the sender included, once its transaction commits. While the listening connection is
 * down, `connected()` is false (callers fall back to re-reading the database) and it reconnects
 * with backoff; after a reconnect `onResync` handlers run, because what was sent meanwhile is lost.
 */
import pg from 'pg'

const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 5_000

export type Notifications = {
  publish: (channel: string, payload: string) => Promise<void>
  /** Also LISTENs on the channel (now, or once connected). */
  subscribe: (channel: string, handler: (payload: string) => void) => void
  /** Runs after the listening connection came back: notifications may have been missed. */
  onResync: (handler: () => void) => void
  connected: () => boolean
  close: () => Promise<void>
}

export async function openNotifications(url: string, pool: pg.Pool): Promise<Notifications> {
  const handlers = new Map<string, Set<(payload: string) => void>>()
  const resyncs = new Set<() => void>()
  let client: pg.Client | undefined
  let live = false
  let closed = false
  let delay = RECONNECT_MIN_MS
  let retry: NodeJS.Timeout | undefined

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, keepAlive: true })
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '')
    })
    next.on('error', () => lost(next))
    next.on('end', () => lost(next))
    await next.connect()
    for (const channel of handlers.keys()) await next.query(`listen ${quoteIdent(channel)}`)
    client = next
    live = true
    delay = RECONNECT_MIN_MS
  }

  function lost(which: pg.Client): void {
    if (which !== client) return
    live = false
    client = undefined
    which.end().catch(() => undefined)
    scheduleReconnect()
  }

  function scheduleReconnect(): void {
    if (closed || retry) return
    retry = setTimeout(() => {
      retry = undefined
      connect().then(
        () => {
          for (const resync of resyncs) resync()
        },
        () => {
          delay = Math.min(delay * 2, RECONNECT_MAX_MS)
          scheduleReconnect()
        },
      )
    }, delay)
    retry.unref()
  }

  await connect()

  return {
    async publish(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload])
    },
    subscribe(channel, handler) {
      let set = handlers.get(channel)
      if (!set) {
        set = new Set()
        handlers.set(channel, set)
        client?.query(`listen ${quoteIdent(channel)}`).catch(() => {
          if (client) lost(client)
        })
      }
      set.add(handler)
    },
    onResync(handler) {
      resyncs.add(handler)
    },
    connected: () => live,
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const current = client
      client = undefined
      live = false
      await current?.end().catch(() => undefined)
    },
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
