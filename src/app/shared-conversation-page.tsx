/**
 * `/s/{token}`: a conversation someone shared by a read-only link (D73), for anyone with the
 * link, signed in or not: the questions, the answers (markdown) and, under each answer, the
 * passages it quoted. Nothing here can open a document or reach the owner's account. Search
 * engines are told to keep out (the meta tag here, `X-Robots-Tag` from the server). Lazy-loaded
 * with the dashboard's chunk.
 */

import { useMachine } from '@xstate/react'
import { lazy, Suspense, useState } from 'react'
import type { SharedMessage, SharedSource } from '#contracts/sharing.ts'
import { listed, missingFrom } from '#machines/chat/citation-outcomes.ts'
import { provideSharedConversationMachine } from '#machines/shared-conversation/shared-conversation-machine.ts'
import { createSharingApi } from '#src/api/sharing.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { UncitedNote } from '#src/features/chat/uncited-note.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { formatDateTime } from '#src/lib/format-date.ts'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../styled-system/css'

// The markdown renderer stays a chunk of its own (D23): the dashboard this page travels with
// must not carry it.
const MarkdownAnswer = lazy(() =>
  import('#src/features/chat/markdown-answer.tsx').then((module) => ({ default: module.MarkdownAnswer })),
)

const pageStyle = css({ maxW: '3xl', mx: 'auto', px: '4', py: '6', display: 'grid', gap: '5' })

export function SharedConversationPage({ token }: { token: string }) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() =>
    provideSharedConversationMachine({ loadShared: createSharingApi(http).getSharedConversation }),
  )
  const [snapshot, send] = useMachine(logic, { input: { token }, inspect })
  const { conversation } = snapshot.context
  useDocumentTitle(conversation ? conversation.title : 'Shared conversation')
  return (
    <main className={pageStyle}>
      <meta name="robots" content="noindex, nofollow, noarchive" />
      <header
        className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3' })}
      >
        <p className={css({ fontWeight: 'semibold', color: 'accent' })}>DocChat</p>
        <p className={css({ fontSize: 'sm', color: 'muted' })}>Shared conversation · read-only</p>
      </header>
      {snapshot.matches('loading') ? (
        <p role="status" className={css({ color: 'muted' })}>
          Loading...
        </p>
      ) : null}
      {snapshot.matches('missing') ? (
        <section className={css({ display: 'grid', gap: '2' })}>
          <h1 className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>
            This shared conversation is not available
          </h1>
          <p>The link may be mistyped, or the person who shared it has stopped sharing it.</p>
        </section>
      ) : null}
      {snapshot.matches('failed') ? (
        <section className={css({ display: 'grid', gap: '3' })}>
          <h1 className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>Shared conversation</h1>
          <Alert>Could not load the shared conversation.</Alert>
          <div>
            <Button onClick={() => send({ type: 'shared.retry' })}>Try again</Button>
          </div>
        </section>
      ) : null}
      {conversation ? (
        <article className={css({ display: 'grid', gap: '4' })}>
          <div>
            <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
              {conversation.title}
            </h1>
            <p className={css({ fontSize: 'sm', color: 'muted' })}>
              Shared {formatDateTime(conversation.sharedAt)}
            </p>
          </div>
          <ol className={css({ display: 'grid', gap: '4' })}>
            {conversation.messages.map((message, i) => (
              // The snapshot never changes under the page: its order is its identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot's messages carry no ids
              <SharedTurn key={i} message={message} />
            ))}
          </ol>
        </article>
      ) : null}
      <footer className={css({ fontSize: 'sm', color: 'muted' })}>
        <a href={paths.login} className={css({ color: 'accent', textDecoration: 'underline' })}>
          Chat with your own documents on DocChat
        </a>
      </footer>
    </main>
  )
}

function SharedTurn({ message }: { message: SharedMessage }) {
  const [shown, setShown] = useState<number | null>(null)
  const time = formatDateTime(message.createdAt)
  const bubble = css({
    p: '3',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'border',
    bg: message.isUser ? 'surfaceMuted' : 'surface',
    display: 'grid',
    gap: '2',
  })
  const citations = message.sources.flatMap((s) => (s.citation ? [s.citation] : []))
  return (
    <li className={bubble} aria-label={message.isUser ? 'Question' : 'Answer'}>
      <p className={css({ fontSize: 'xs', color: 'muted' })}>
        {message.isUser ? 'Question' : 'DocChat'} · {time}
        {message.stopped ? ' · Stopped' : ''}
      </p>
      {message.isUser ? (
        <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{message.content}</p>
      ) : (
        <Suspense fallback={<p className={css({ whiteSpace: 'pre-wrap' })}>{message.content}</p>}>
          <MarkdownAnswer
            text={message.content}
            citations={citations}
            checks={message.checks}
            onCite={setShown}
          />
        </Suspense>
      )}
      {message.isUser ? null : <UncitedNote checks={message.checks} />}
      {message.sources.length > 0 ? (
        <div className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
          <p className={css({ color: 'muted' })}>Sources:</p>
          {message.sources.map((source, i) => (
            <SharedQuote
              // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot's sources carry no ids
              key={i}
              source={source}
              missing={missingFrom(message.checks, source.citation)}
              open={shown !== null && source.citation === shown}
            />
          ))}
        </div>
      ) : null}
    </li>
  )
}

function SharedQuote({ source, missing, open }: { source: SharedSource; missing: string[]; open: boolean }) {
  const where = [source.page ? `p. ${source.page}` : null, source.heading].filter(Boolean).join(' · ')
  return (
    <details open={open || undefined}>
      <summary className={css({ cursor: 'pointer' })}>
        {source.citation ? `[${source.citation}] ` : ''}
        {source.documentName}
        {where ? ` · ${where}` : ''}
      </summary>
      <blockquote
        className={css({
          mt: '1',
          borderLeftWidth: '3px',
          borderColor: 'border',
          pl: '3',
          whiteSpace: 'pre-wrap',
        })}
      >
        {source.quote}
      </blockquote>
      {missing.length > 0 ? (
        <p role="note" className={css({ color: 'danger' })}>
          <span aria-hidden="true">⚠ </span>Not found in this passage: {listed(missing)}
        </p>
      ) : null}
    </details>
  )
}
