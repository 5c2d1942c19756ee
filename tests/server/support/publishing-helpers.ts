/**
 * What the publishing tests share: publishing through PATCH /assistants/:id, the visitor calls
 * through `inject` with the contract's paths (and the headers a browser would send), the visitor
 * stream read with the visitor's schema, tokens signed as a host site would, and tiny
 * VisitorBudgets (the real ones are counted in the database, tested apart).
 */
import type { LightMyRequestResponse } from 'fastify'
import { SignJWT } from 'jose'
import { type Assistant, assistantEndpoints } from '#contracts/assistants.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { type PublicStreamEvent, PublicStreamEventSchema, publicEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import type { AdmitInput, VisitorBudgets } from '#server/publishing/visitor-budgets.ts'

export async function patchAssistantOk(
  app: App,
  cookie: string,
  id: string,
  body: Record<string, unknown>,
): Promise<Assistant> {
  const response = await app.inject({
    method: 'PATCH',
    url: fillPath(assistantEndpoints.updateAssistant.path, { id }),
    headers: { cookie },
    payload: body,
  })
  if (response.statusCode !== 200) throw new Error(`patch failed: ${response.statusCode} ${response.body}`)
  return assistantEndpoints.updateAssistant.response.parse(response.json()).data
}

/** A budget that admits every answer and records what each spent. */
export function admitAll(): VisitorBudgets & { asked: AdmitInput[]; spent: number[] } {
  const asked: AdmitInput[] = []
  const spent: number[] = []
  return {
    asked,
    spent,
    admit: async (input) => {
      asked.push(input)
      return { kind: 'admitted', finish: async (tokens) => void spent.push(tokens) }
    },
  }
}

/** Budgets that admit until `refusing` is set. */
export function switchableBudgets(retryAfterSeconds = 120): VisitorBudgets & { refusing: boolean } {
  const budgets = {
    refusing: false,
    admit: async () =>
      budgets.refusing
        ? ({ kind: 'refused', reason: 'assistant-answers', retryAfterSeconds } as const)
        : ({ kind: 'admitted', finish: async () => {} } as const),
  }
  return budgets
}

export type VisitorHeaders = Record<string, string>

export function askPublic(
  app: App,
  publicId: string,
  body: Record<string, unknown>,
  headers: VisitorHeaders = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: fillPath(publicEndpoints.ask.path, { publicId }),
    headers,
    payload: body,
  })
}

export function parsePublicStream(body: string): PublicStreamEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [eventLine = '', ...dataLines] = block.split('\n')
      return PublicStreamEventSchema.parse({
        event: eventLine.slice(6).trim(),
        data: JSON.parse(dataLines.map((l) => l.replace(/^data: ?/, '')).join('\n')),
      })
    })
}

/** The `done` event of a visitor's answer (throws on anything else). */
export function doneOf(response: LightMyRequestResponse) {
  const last = parsePublicStream(response.body).at(-1)
  if (last?.event !== 'done') throw new Error(`no done event: ${response.statusCode} ${response.body}`)
  return last.data
}

/** The visitor cookie a browser would send back after `response`. */
export function visitorCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'docchat_visitor')
  if (!cookie) throw new Error('no visitor cookie')
  return `docchat_visitor=${cookie.value}`
}

type Claims = { sub?: string; aud?: string; name?: string; email?: string }

/** A host site's token for its signed-in user: HS256 with `secret`, expiring in `ttlSeconds`. */
export function signUserToken(
  secret: string,
  claims: Claims,
  { now, ttlSeconds = 300 }: { now: Date; ttlSeconds?: number },
): Promise<string> {
  const { sub, aud, ...rest } = claims
  const issuedAt = Math.floor(now.getTime() / 1000)
  let jwt = new SignJWT(rest)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
  if (sub !== undefined) jwt = jwt.setSubject(sub)
  if (aud !== undefined) jwt = jwt.setAudience(aud)
  return jwt.sign(new TextEncoder().encode(secret))
}

/** An unsigned token (`alg: none`) claiming to be `sub` for `aud`. */
export function unsignedToken(claims: { sub: string; aud: string }, now: Date): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const iat = Math.floor(now.getTime() / 1000)
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, iat, exp: iat + 300 })}.`
}
