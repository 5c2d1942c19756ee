/**
 * The inbox's facade (issue 37): starts the inbox machine for the screen's lifetime with the calls
 * of src/api (the assistant, and the publishing calls), and hands the view selectors and intents.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import { provideInboxMachine } from '#machines/assistants/inbox-machine.ts'
import type { InboxFilter } from '#machines/assistants/inbox-types.ts'
import { createAssistantsApi } from '#src/api/assistants.ts'
import { createPublishingApi, inboxCsvUrl } from '#src/api/publishing.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

export function useInbox(assistantId: string) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() =>
    provideInboxMachine({ get: createAssistantsApi(http).get, ...createPublishingApi(http) }),
  )
  const actor = useActorRef(logic, { inspect, input: { assistantId } })
  const filter = useSelector(actor, (s) => s.context.filter)
  return {
    status: useSelector(actor, (s) =>
      s.matches({ list: 'loading' })
        ? 'loading'
        : s.matches({ list: 'missing' })
          ? 'missing'
          : s.matches({ list: 'failed' })
            ? 'failed'
            : 'ready',
    ),
    assistant: useSelector(actor, (s) => s.context.assistant),
    filter,
    conversations: useSelector(actor, (s) => s.context.conversations),
    hasMore: useSelector(actor, (s) => s.context.next !== null),
    paging: useSelector(actor, (s) => s.hasTag('paging')),
    refreshing: useSelector(actor, (s) => s.hasTag('refreshing')),
    topQuestions: useSelector(actor, (s) => s.context.topQuestions),
    perDay: useSelector(actor, (s) => s.context.perDay),
    selectedId: useSelector(actor, (s) => s.context.selectedId),
    open: useSelector(actor, (s) => s.context.open),
    opening: useSelector(actor, (s) => s.hasTag('opening')),
    openProblem: useSelector(actor, (s) => s.context.openProblem),
    pendingDelete: useSelector(actor, (s) =>
      s.matches({ list: 'confirmingDelete' }) || s.matches({ list: 'deleting' })
        ? s.context.pendingDelete
        : null,
    ),
    deleting: useSelector(actor, (s) => s.hasTag('deleting')),
    problem: useSelector(actor, (s) => s.context.problem),
    notice: useSelector(actor, (s) => s.context.notice),
    csvUrl: inboxCsvUrl(assistantId, filter),
    retry: () => actor.send({ type: 'inbox.retry' }),
    setFilter: (next: InboxFilter) => actor.send({ type: 'inbox.filter', filter: next }),
    more: () => actor.send({ type: 'inbox.more' }),
    openConversation: (conversationId: string) => actor.send({ type: 'inbox.open', conversationId }),
    close: () => actor.send({ type: 'inbox.close' }),
    askDelete: (conversationId: string | null) => actor.send({ type: 'inbox.askDelete', conversationId }),
    cancelDelete: () => actor.send({ type: 'inbox.cancelDelete' }),
    confirmDelete: () => actor.send({ type: 'inbox.confirmDelete' }),
  }
}

export type InboxFacade = ReturnType<typeof useInbox>
