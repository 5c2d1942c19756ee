import { useCallback } from 'react'
import { useLocation } from 'wouter'
import type { Assistant } from '#contracts/assistants.ts'
import { AssistantEditorView } from '#src/features/assistants/assistant-editor-view.tsx'
import { AssistantsView } from '#src/features/assistants/assistants-view.tsx'
import { InboxView } from '#src/features/assistants/inbox-view.tsx'
import { useAssistantEditor } from '#src/features/assistants/use-assistants.ts'
import { useInbox } from '#src/features/assistants/use-inbox.ts'
import { AssistantTryIt, useTryIt } from '../assistant-try-it.tsx'
import { useScreenParam } from '../screen-match.ts'

/** The Assistants section (issue 36): the person's assistants, each a card leading to its page. */
export function AssistantsSection() {
  return <AssistantsView />
}

/**
 * One assistant's page (issue 36): its form (assistants feature) with Try it beside it (the
 * chat's actors and views, composed here). A duplicate opens the copy; a deleted one goes back
 * to the list.
 */
export function AssistantSection() {
  const id = useScreenParam('id') ?? ''
  const [, navigate] = useLocation()
  const onDuplicated = useCallback(
    (copyId: string) => navigate(`/assistants/${encodeURIComponent(copyId)}`),
    [navigate],
  )
  const onDeleted = useCallback(() => navigate('/assistants', { replace: true }), [navigate])
  const editor = useAssistantEditor(id, { onDuplicated, onDeleted })
  const { actor } = useTryIt(id)
  const tryIt = (assistant: Assistant, unsaved: boolean) => (
    <AssistantTryIt tryIt={actor} assistant={assistant} unsaved={unsaved} />
  )
  return <AssistantEditorView editor={editor} tryIt={tryIt} />
}

/** An assistant's visitor conversations (issue 37), reached from its page, not the sidebar. */
export function AssistantInboxSection() {
  const inbox = useInbox(useScreenParam('id') ?? '')
  return <InboxView inbox={inbox} />
}
