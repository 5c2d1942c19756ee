/**
 * Who the server is working for right now (`app.activity`, D94): the API requests in flight and
 * those that ended a moment ago, by person. The document writer reads it to give way: on embedded
 * PGlite every statement runs on the server's own thread, so while one person's large files are
 * written, another person's click waits for the writer's statement in progress. It writes in
 * short transactions and pauses while somebody else's request is being answered
 * (document-writer.ts).
 *
 * Only `/api/` requests count, and only for their first ACTIVE_REQUEST_MS: a probe or a static
 * file touches no table, and a request older than that is a stream or an upload in progress, not
 * a person waiting on a click. A request counts for the person it is signed in as (known once its
 * route's authentication ran), or for nobody in particular before that (a sign-in).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { healthEndpoint } from '#contracts/auth.ts'
import { readyEndpoint } from '#contracts/operations.ts'

/** A request older than this (a stream, an upload) no longer counts as a person waiting. */
export const ACTIVE_REQUEST_MS = 2_000
/** Requests ended within this long count as "recent": their person is likely to click again. */
export const RECENT_MS = 1_000
/** A request in flight this long without an end (a lost hook) is forgotten. */
const FORGET_MS = 60 * 60_000
/** Probes and metrics scrapes: no person waits for them. */
const UNCOUNTED: ReadonlySet<string> = new Set([healthEndpoint.path, readyEndpoint.path])

/** waiting: a request of another person is being answered now; recent: one ended within RECENT_MS. */
export type Others = 'waiting' | 'recent' | 'none'

export type RequestActivity = {
  /** Whether people other than `owners` are being served now or were a moment ago. */
  others(owners: ReadonlySet<string>): Others
  begin(request: FastifyRequest): void
  end(request: FastifyRequest): void
}

type Tracked = { request: FastifyRequest; startedAt: number }

const personOf = (request: FastifyRequest): string | null => request.user?.id ?? null

export function createRequestActivity(clock: () => number = () => performance.now()): RequestActivity {
  const inFlight = new Map<FastifyRequest, Tracked>()
  /** When each person's (or nobody's: '') last request ended. */
  const ended = new Map<string, number>()
  return {
    begin(request) {
      const path = request.url.split('?', 1)[0] ?? ''
      if (!path.startsWith('/api/') || UNCOUNTED.has(path)) return
      inFlight.set(request, { request, startedAt: clock() })
    },
    end(request) {
      if (!inFlight.delete(request)) return
      ended.set(personOf(request) ?? '', clock())
    },
    others(owners) {
      const now = clock()
      for (const { request, startedAt } of inFlight.values()) {
        if (now - startedAt > FORGET_MS) inFlight.delete(request)
        if (now - startedAt > ACTIVE_REQUEST_MS) continue
        const person = personOf(request)
        if (person === null || !owners.has(person)) return 'waiting'
      }
      let recent = false
      for (const [person, at] of ended) {
        if (now - at > RECENT_MS) ended.delete(person)
        else if (person === '' || !owners.has(person)) recent = true
      }
      return recent ? 'recent' : 'none'
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    activity: RequestActivity
  }
}

/** Registers the hooks that keep `app.activity` up to date (callback style: every request runs them). */
export const requestActivityPlugin = fp(
  async (app) => {
    const activity = createRequestActivity()
    app.decorate('activity', activity)
    app.addHook(
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        activity.begin(request)
        done()
      },
    )
    const end = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      activity.end(request)
      done()
    }
    app.addHook('onResponse', end)
    app.addHook('onRequestAbort', (request: FastifyRequest, done: HookHandlerDoneFunction) => {
      activity.end(request)
      done()
    })
  },
  { name: 'request-activity' },
)
