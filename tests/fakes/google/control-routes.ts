/**
 * The control surface over HTTP under /__emulator/, for the standalone emulator (e2e runs, manual
 * poking with curl). Each route calls the same method a test calls on `emulator.state`; bodies
 * are JSON. Never part of Google's API, so no Google client ever reaches it by accident.
 *
 *   GET    /__emulator                          summary: clients, accounts, file counts, request counts
 *   GET    /__emulator/files?owner=EMAIL        every file (trashed and folders included)
 *   POST   /__emulator/files                    add  {owner?, name, mimeType, content?, contentBase64?, exports?, …}
 *   PATCH  /__emulator/files/ID                 update (bumps version + modifiedTime) {name?, content?, …}
 *   POST   /__emulator/files/ID/trash           {trashed?: boolean}
 *   DELETE /__emulator/files/ID                 remove for good
 *   POST   /__emulator/failures                 {count, reason?, endpoints?}; DELETE clears them
 *   POST   /__emulator/accounts/EMAIL/revoke    revoke every grant of the account
 *   POST   /__emulator/accounts/EMAIL/email-verified  {verified}: what ID tokens say of the address
 *   POST   /__emulator/tokens/expire            {email?}: access tokens stop working now
 *   GET    /__emulator/requests                 {counts, requests, lastAuthRequest}; DELETE clears
 *   POST   /__emulator/drives                   add a shared drive {name, members: [EMAIL], id?}
 *   POST   /__emulator/changes/expire           every change page token handed out stops working
 *   POST   /__emulator/clock                    {advanceMs}
 *   POST   /__emulator/reset                    back to the fixtures
 */
import type { FailureReason } from './google-errors.ts'
import { readJson, sendJson } from './http.ts'
import type { Route, RouteContext } from './route-context.ts'
import type { DriveEndpoint, FileChanges, NewDriveFile } from './store.ts'

type Json = Record<string, unknown>

async function body(ctx: RouteContext): Promise<Json> {
  const parsed = await readJson(ctx.req)
  return parsed && typeof parsed === 'object' ? (parsed as Json) : {}
}

/** JSON cannot carry bytes: `contentBase64` stands for binary `content`. */
function withContent<T extends FileChanges>(input: Json): T {
  const { contentBase64, ...rest } = input
  return (
    typeof contentBase64 === 'string' ? { ...rest, content: Buffer.from(contentBase64, 'base64') } : rest
  ) as T
}

function control(
  methods: readonly string[],
  pattern: RegExp,
  handle: (ctx: RouteContext) => Promise<unknown> | unknown,
  status = 200,
): Route {
  return {
    methods,
    pattern,
    endpoint: 'control',
    async handle(ctx) {
      try {
        sendJson(ctx.res, status, (await handle(ctx)) ?? { ok: true })
      } catch (error) {
        sendJson(ctx.res, 400, { error: error instanceof Error ? error.message : String(error) })
      }
    },
  }
}

export const controlRoutes: readonly Route[] = [
  control(['GET'], /^\/__emulator\/?$/, ({ store, baseUrl }) => ({
    url: baseUrl,
    clients: store.clients.map((c) => ({ clientId: c.clientId, clientSecret: c.clientSecret, name: c.name })),
    accounts: store.accounts.map((a) => ({
      email: a.email,
      name: a.name,
      files: store.listFiles(a.email).length,
    })),
    maxPageSize: store.settings.maxPageSize,
    pendingFailures: store.pendingFailures(),
    requestCounts: store.requestCounts(),
    lastAuthRequest: store.lastAuthRequest ?? null,
  })),
  control(['GET'], /^\/__emulator\/files$/, ({ store, url }) => ({
    files: store.listFiles(url.searchParams.get('owner') ?? undefined),
  })),
  control(
    ['POST'],
    /^\/__emulator\/files$/,
    async (ctx) => ctx.store.addFile(withContent<NewDriveFile>(await body(ctx))),
    201,
  ),
  control(['PATCH'], /^\/__emulator\/files\/([^/]+)$/, async (ctx) =>
    ctx.store.updateFile(ctx.params[0] ?? '', withContent<FileChanges>(await body(ctx))),
  ),
  control(['POST'], /^\/__emulator\/files\/([^/]+)\/trash$/, async (ctx) =>
    ctx.store.trashFile(ctx.params[0] ?? '', (await body(ctx)).trashed !== false),
  ),
  control(['DELETE'], /^\/__emulator\/files\/([^/]+)$/, (ctx) => ctx.store.removeFile(ctx.params[0] ?? '')),
  control(['POST'], /^\/__emulator\/failures$/, async (ctx) => {
    const input = await body(ctx)
    ctx.store.failNextDriveRequests(Number(input.count ?? 1), {
      ...(typeof input.reason === 'string' ? { reason: input.reason as FailureReason } : {}),
      ...(Array.isArray(input.endpoints) ? { endpoints: input.endpoints as DriveEndpoint[] } : {}),
    })
    return { pendingFailures: ctx.store.pendingFailures() }
  }),
  control(['DELETE'], /^\/__emulator\/failures$/, ({ store }) => store.clearFailures()),
  control(['POST'], /^\/__emulator\/accounts\/([^/]+)\/revoke$/, (ctx) => ({
    revoked: ctx.store.revokeGrants(ctx.params[0] ?? ''),
  })),
  control(['POST'], /^\/__emulator\/accounts\/([^/]+)\/email-verified$/, async (ctx) => {
    const { verified } = await body(ctx)
    ctx.store.setEmailVerified(decodeURIComponent(ctx.params[0] ?? ''), verified !== false)
  }),
  control(['POST'], /^\/__emulator\/tokens\/expire$/, async (ctx) => {
    const { email } = await body(ctx)
    return { expired: ctx.store.expireAccessTokens(typeof email === 'string' ? email : undefined) }
  }),
  control(['GET'], /^\/__emulator\/requests$/, ({ store }) => ({
    counts: store.requestCounts(),
    requests: store.requests,
    lastAuthRequest: store.lastAuthRequest ?? null,
  })),
  control(['DELETE'], /^\/__emulator\/requests$/, ({ store }) => store.clearRequests()),
  control(
    ['POST'],
    /^\/__emulator\/drives$/,
    async (ctx) => {
      const input = await body(ctx)
      return ctx.store.addSharedDrive({
        name: String(input.name ?? 'Shared drive'),
        members: Array.isArray(input.members) ? input.members.map(String) : [],
        ...(typeof input.id === 'string' ? { id: input.id } : {}),
      })
    },
    201,
  ),
  control(['POST'], /^\/__emulator\/changes\/expire$/, ({ store }) => store.expireChangeTokens()),
  control(['POST'], /^\/__emulator\/clock$/, async (ctx) =>
    ctx.store.advanceTime(Number((await body(ctx)).advanceMs ?? 0)),
  ),
  control(['POST'], /^\/__emulator\/reset$/, ({ store }) => store.reset()),
]
