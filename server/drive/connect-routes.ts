/**
 * The Drive connect window (product §7): `GET DRIVE_CONNECT_PATH` sends the signed-in person to
 * Google's consent page; Google sends them back to `GET DRIVE_CALLBACK_PATH`. Both answer a
 * window, not a fetch, so every outcome is a small HTML page (connect-pages.ts), never JSON.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DRIVE_CALLBACK_PATH, DRIVE_CONNECT_PATH } from '#contracts/drive.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import { ACCESS_COOKIE } from '../auth/cookies.ts'
import { CONNECT_PAGES, type ConnectPage, OUTCOME_PAGES, renderConnectPage } from './connect-pages.ts'
import type { CallbackQuery } from './google-connections.ts'

export async function googleConnectRoutes(app: FastifyInstance) {
  /** The signed-in person, or null: a window shows a page for that, not a 401 JSON body. */
  async function signedInUser(request: FastifyRequest): Promise<CurrentUser | null> {
    const token = request.cookies[ACCESS_COOKIE]
    const cached = app.auth.cachedSession(token)
    const session = cached === undefined ? await app.auth.authenticate(token) : cached
    return session?.user ?? null
  }

  function sendPage(reply: FastifyReply, page: ConnectPage) {
    const { html, csp } = renderConnectPage(page, app.config.publicOrigin)
    return reply
      .code(page.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', csp)
      .send(html)
  }

  app.get(DRIVE_CONNECT_PATH, async (request, reply) => {
    const connections = app.googleConnections
    if (!connections) return sendPage(reply, CONNECT_PAGES.notConfigured)
    const user = await signedInUser(request)
    if (!user) return sendPage(reply, CONNECT_PAGES.notSignedIn)
    return reply.redirect(await connections.consentUrl(user.id), 302)
  })

  app.get(DRIVE_CALLBACK_PATH, async (request, reply) => {
    const connections = app.googleConnections
    if (!connections) return sendPage(reply, CONNECT_PAGES.notConfigured)
    const user = await signedInUser(request)
    if (!user) return sendPage(reply, CONNECT_PAGES.notSignedIn)
    const outcome = await connections.complete(user.id, callbackQuery(request.query))
    return sendPage(reply, OUTCOME_PAGES[outcome])
  })
}

/** Google adds parameters of its own (scope, authuser, prompt, …): only single strings count. */
function callbackQuery(query: unknown): CallbackQuery {
  const q = (query ?? {}) as Record<string, unknown>
  const pick = (name: string) =>
    typeof q[name] === 'string' && q[name] !== '' ? (q[name] as string) : undefined
  const state = pick('state')
  const code = pick('code')
  const error = pick('error')
  return {
    ...(state === undefined ? {} : { state }),
    ...(code === undefined ? {} : { code }),
    ...(error === undefined ? {} : { error }),
  }
}
