/**
 * Facade for Settings → API keys (issue 38): runs the machine with the key calls and the
 * assistants list (what a key may be limited to), and hands the views what they read and the
 * intents they may call.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useMemo } from 'react'
import type { CreateApiKeyRequest } from '#contracts/api-keys.ts'
import { provideApiKeysMachine } from '#machines/settings/api-keys-machine.ts'
import { createApiKeysApi } from '#src/api/api-keys.ts'
import { createAssistantsApi } from '#src/api/assistants.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

export function useApiKeys() {
  const { http, inspect } = useAppDeps()
  const deps = useMemo(() => {
    const keys = createApiKeysApi(http)
    const assistants = createAssistantsApi(http)
    return {
      async load() {
        const [list, mine] = await Promise.all([keys.list(), assistants.list()])
        return { keys: list, assistants: mine.map(({ _id, name }) => ({ _id, name })) }
      },
      createKey: keys.create,
      revokeKey: keys.revoke,
    }
  }, [http])
  const actor = useActorRef(provideApiKeysMachine(deps), { inspect })
  return {
    loading: useSelector(actor, (s) => s.hasTag('loading') && s.context.keys.length === 0),
    failed: useSelector(actor, (s) => s.value === 'failed'),
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    composing: useSelector(actor, (s) => s.hasTag('composing')),
    confirming: useSelector(actor, (s) => (s.hasTag('confirming') ? s.context.revokingId : null)),
    created: useSelector(actor, (s) => (s.hasTag('showing') ? s.context.created : null)),
    keys: useSelector(actor, (s) => s.context.keys),
    assistants: useSelector(actor, (s) => s.context.assistants),
    error: useSelector(actor, (s) => s.context.error),
    compose: () => actor.send({ type: 'apiKeys.compose' }),
    create: (request: CreateApiKeyRequest) => actor.send({ type: 'apiKeys.create', request }),
    cancel: () => actor.send({ type: 'apiKeys.cancel' }),
    closeKey: () => actor.send({ type: 'apiKeys.closeKey' }),
    revoke: (id: string) => actor.send({ type: 'apiKeys.revoke', id }),
    confirmRevoke: () => actor.send({ type: 'apiKeys.confirmRevoke' }),
    retry: () => actor.send({ type: 'apiKeys.retry' }),
  }
}

export type ApiKeysFacade = ReturnType<typeof useApiKeys>
