/**
 * Type-level tests of the route helper, run by `npm run typecheck`: a handler gets its input
 * typed from the endpoint and must answer what the endpoint says. Every `@ts-expect-error` line
 * must stay an error.
 */
import { expectTypeOf } from 'vitest'
import { authEndpoints, healthEndpoint } from '#contracts/auth.ts'
import { type Conversation, chatEndpoints } from '#contracts/chat.ts'
import type { CurrentUser } from '#server/auth/auth-service.ts'
import { type AppInstance, defineRoute } from '#server/http/define-route.ts'

declare const app: AppInstance
declare const conversation: Conversation

export function routes() {
  defineRoute(app, chatEndpoints.updateConversation, {
    auth: 'user',
    handler({ user, params, body }) {
      expectTypeOf(user).toEqualTypeOf<CurrentUser>()
      expectTypeOf(params).toEqualTypeOf<{ id: string }>()
      expectTypeOf(body.title).toEqualTypeOf<string | undefined>()
      return conversation
    },
  })

  defineRoute(app, authEndpoints.logout, {
    auth: 'public',
    handler({ user }) {
      // A public route has no signed-in user to hand over.
      expectTypeOf(user).toEqualTypeOf<null>()
      return null
    },
  })

  defineRoute(app, chatEndpoints.listMessages, {
    auth: 'user',
    handler: ({ params }) => {
      // @ts-expect-error the path has `:id` only
      void params.messageId
      return []
    },
  })

  defineRoute(app, chatEndpoints.listConversations, {
    auth: 'user',
    // @ts-expect-error the handler answers the data (a list), and the helper adds the envelope
    handler: () => ({ success: true as const, data: [conversation] }),
  })

  defineRoute(app, healthEndpoint, {
    auth: 'public',
    // @ts-expect-error the probe answers `{ status: 'ok' }`, bare
    handler: () => ({ status: 'fine' }),
  })

  // @ts-expect-error every route says whether it needs a signed-in user
  defineRoute(app, chatEndpoints.listConversations, { handler: () => [conversation] })
}
