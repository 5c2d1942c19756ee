/**
 * Personal API keys (issue 38, D124): Settings' key calls (api-keys-routes.ts), `app.apiKeys` (the
 * service, and `authenticate(request, scope?)` for routes that answer refusals in their own shape,
 * as /openai/v1 does), and two hooks for routes that take a key:
 *
 *   onRequest: [app.requireApiKey('chat')]              // a key only
 *   defineRoute(app, e, { auth: 'user', apiKey: 'library', … })  // the session, or a key instead
 *
 * Both set `request.apiKey` and `request.user` (the key's owner), so a handler serves both alike.
 * An account taken back by its owner (D99) loses its keys with its sessions.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import type { ApiKeyScope } from '#contracts/api-keys.ts'
import { Forbidden, Invalid, TooMany, Unauthorized } from '../http/domain-errors.ts'
import type { ApiKeyRefusal } from './api-key-errors.ts'
import { createApiKeysRepository } from './api-keys-repository.ts'
import { apiKeysRoutes } from './api-keys-routes.ts'
import { type ApiKeyPrincipal, ApiKeysService } from './api-keys-service.ts'
import { authenticateApiKey, bearerToken, isRefusal } from './key-authentication.ts'
import { createKeyHasher } from './key-material.ts'
import { createKeyRate } from './key-rate.ts'
import { createKeyRateRepository } from './key-rate-repository.ts'

type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeysService & {
      /** The request's key, checked (with `scope`, that it has it), or why it is refused; sets nothing. */
      authenticate(request: FastifyRequest, scope?: ApiKeyScope): Promise<ApiKeyPrincipal | ApiKeyRefusal>
    }
    /** onRequest/preHandler hook: a valid key with `scope` or the refusal (400/401/403/429 with its sentence). */
    requireApiKey(scope: ApiKeyScope): AuthHook
    /** onRequest hook of `defineRoute`'s `apiKey` routes: the session as `app.authenticate`, or a key with `scope`. */
    sessionOrApiKey(
      scope: ApiKeyScope,
    ): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
  interface FastifyRequest {
    /** The key the request was authenticated with; null for a browser session or none. */
    apiKey: ApiKeyPrincipal | null
  }
}

export const apiKeysPlugin = fp<{ now: () => Date }>(
  async (app, opts) => {
    const service = new ApiKeysService({
      rows: createApiKeysRepository(app.db),
      hash: createKeyHasher(app.config.appSecret),
      now: opts.now,
      limits: app.config.apiKeyLimits,
      rate: createKeyRate(createKeyRateRepository(app.db)),
    })
    const apiKeys = Object.assign(service, {
      authenticate: (request: FastifyRequest, scope?: ApiKeyScope) =>
        authenticateApiKey(service, request, scope),
    })
    app.decorate('apiKeys', apiKeys)
    app.decorateRequest('apiKey', null)

    async function signInWithKey(request: FastifyRequest, scope: ApiKeyScope): Promise<void> {
      const result = await apiKeys.authenticate(request, scope)
      if (isRefusal(result)) throw refusalError(result)
      request.apiKey = result
      request.user = result.owner
    }

    app.decorate(
      'requireApiKey',
      (scope: ApiKeyScope): AuthHook =>
        (request) =>
          signInWithKey(request, scope),
    )
    app.decorate('sessionOrApiKey', (scope: ApiKeyScope) => {
      return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (bearerToken(request) === undefined) {
          app.authenticate(request, reply, done)
          return
        }
        signInWithKey(request, scope).then(() => done(), done)
      }
    })

    // A key never sets a cookie, whatever the route it calls would otherwise set.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.apiKey) reply.removeHeader('set-cookie')
      done(null, payload)
    })

    app.googleAccounts.onClaimed(async (userId, log) => {
      const revoked = await service.revokeAll(userId)
      log.info(
        { event: 'api-keys.revoked-on-claim', userId, revoked },
        'API keys of a taken-back account revoked',
      )
    })
    await app.register(apiKeysRoutes)
  },
  {
    name: 'api-keys',
    dependencies: ['database', '@fastify/cookie', 'request-guards', 'authentication'],
  },
)

function refusalError(refused: ApiKeyRefusal): Error {
  if (refused.status === 429) return new TooMany(refused.message, refused.retryAfterSeconds ?? 60)
  if (refused.status === 403) return new Forbidden(refused.message)
  if (refused.status === 400) return new Invalid(refused.message)
  return new Unauthorized(refused.message)
}
