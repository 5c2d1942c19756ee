/**
 * "Try it" beside an assistant's form (issue 36, D116): a live chat with the assistant as saved,
 * on the chat's own actors (machines/assistants/try-it-machine.ts) and the chat's message list and
 * passage panel. Its conversations are real ones, with the assistant, so they are in History too.
 * Unsaved changes are not tried: the page says to save them first.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import type { Assistant } from '#contracts/assistants.ts'
import { provideTryItMachine, tryItViewOf } from '#machines/assistants/try-it-machine.ts'
import { createChatApi } from '#src/api/chat.ts'
import { createStreamCall } from '#src/api/chat-stream.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { CitationPanel } from '#src/features/chat/citation-panel.tsx'
import { MessageList } from '#src/features/chat/message-list.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { css } from '../../../styled-system/css'

const notOffered = () => Promise.reject(new Error('Try it takes no files'))

/**
 * The Try-it actor, started by the assistant's page so that it outlives its view: a Save draws the
 * form (and Try it) afresh from what was saved, and the conversation on screen stays.
 */
export function useTryIt(assistantId: string) {
  const { http, httpOptions, log, inspect } = useAppDeps()
  const [logic] = useState(() => {
    const api = createChatApi(http, createStreamCall(httpOptions))
    return provideTryItMachine(
      {
        ...api,
        sendMessage: api.streamMessage,
        listConversationFiles: createDocumentsApi(http).listConversationFiles,
        uploadFile: notOffered,
        log,
      },
      assistantId,
    )
  })
  return { actor: useActorRef(logic, { inspect }) }
}

type TryIt = ReturnType<typeof useTryIt>['actor']

export function AssistantTryIt({
  tryIt,
  assistant,
  unsaved,
}: {
  tryIt: TryIt
  assistant: Assistant
  unsaved: boolean
}) {
  const actor = tryIt
  const view = useSelector(actor, tryItViewOf, (a, b) => JSON.stringify(a) === JSON.stringify(b))
  const send = (content: string) => actor.send({ type: 'chat.send', content })
  const message = view.openSource && view.messages.find((m) => m.id === view.openSource?.messageId)
  const source = message?.sources.find((s) => s.chunkId === view.openSource?.chunkId)
  return (
    <Card
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '3',
        position: { lg: 'sticky' },
        top: '4',
      })}
    >
      <div
        className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}
      >
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Try it</h2>
        <Button
          variant="ghost"
          size="sm"
          disabled={view.busy || view.messages.length === 0}
          onClick={() => actor.send({ type: 'chat.new' })}
        >
          Start over
        </Button>
      </div>
      {unsaved ? (
        <Alert tone="info">Save to try your changes: Try it answers as the assistant was last saved.</Alert>
      ) : null}
      {view.messages.length === 0 ? (
        <StarterQuestions questions={assistant.starterQuestions} disabled={view.busy} onAsk={send} />
      ) : (
        <div className={css({ maxH: '28rem', display: 'flex', flexDirection: 'column', minH: '0' })}>
          <MessageList
            messages={view.messages}
            awaitingReply={view.busy && !view.streaming}
            ratingMessageIds={[]}
            onRate={(messageId, feedback) => actor.send({ type: 'chat.rate', messageId, feedback })}
            regenerableId={null}
            onRegenerate={() => {}}
            onShowSource={(messageId, s) =>
              actor.send({ type: 'chat.showSource', messageId, chunkId: s.chunkId })
            }
            busy={view.busy}
            switchingVersionIds={[]}
            onShowVersion={(messageId, version) =>
              actor.send({ type: 'chat.showVersion', messageId, version })
            }
            reasonAsk={view.reasonAsk}
            onExplainDislike={(messageId, why) => actor.send({ type: 'chat.explainDislike', messageId, why })}
            onSkipReason={() => actor.send({ type: 'chat.skipReason' })}
          />
        </div>
      )}
      {view.notice ? <Alert>{view.notice}</Alert> : null}
      {message && source ? (
        <CitationPanel
          source={source}
          answer={message.content}
          onClose={() => actor.send({ type: 'chat.closeSource' })}
        />
      ) : null}
      <TryItComposer
        draft={view.draft}
        streaming={view.streaming}
        disabled={view.busy}
        onDraft={(text) => actor.send({ type: 'chat.type', text })}
        onSend={send}
        onStop={() => actor.send({ type: 'chat.stop' })}
      />
    </Card>
  )
}

function StarterQuestions(props: { questions: string[]; disabled: boolean; onAsk: (q: string) => void }) {
  if (props.questions.length === 0)
    return <p className={css({ fontSize: 'sm', color: 'muted' })}>Ask it something its documents cover.</p>
  return (
    <ul aria-label="Starter questions" className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
      {props.questions.map((question) => (
        <li key={question}>
          <Button
            variant="secondary"
            size="sm"
            disabled={props.disabled}
            onClick={() => props.onAsk(question)}
          >
            {question}
          </Button>
        </li>
      ))}
    </ul>
  )
}

type ComposerProps = {
  draft: string
  streaming: boolean
  disabled: boolean
  onDraft: (text: string) => void
  onSend: (text: string) => void
  onStop: () => void
}

function TryItComposer({ draft, streaming, disabled, onDraft, onSend, onStop }: ComposerProps) {
  return (
    <form
      className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}
      onSubmit={(event) => {
        event.preventDefault()
        if (draft.trim() !== '') onSend(draft)
      }}
    >
      <textarea
        aria-label="Ask the assistant"
        placeholder="Ask the assistant…"
        rows={2}
        value={draft}
        disabled={disabled && !streaming}
        onChange={(event) => onDraft(event.target.value)}
        onKeyDown={(event) => {
          // As the chat's composer: Enter sends, Shift+Enter breaks the line.
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault()
            event.currentTarget.form?.requestSubmit()
          }
        }}
        className={css({
          flex: '1',
          p: '2',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'lg',
          fontSize: 'sm',
          resize: 'none',
          _focusVisible: { outline: 'none', borderColor: 'focus', boxShadow: 'focusRing' },
        })}
      />
      {streaming ? (
        <Button type="button" variant="secondary" onClick={onStop}>
          Stop
        </Button>
      ) : (
        <Button type="submit" disabled={disabled || draft.trim() === ''}>
          Send
        </Button>
      )}
    </form>
  )
}
