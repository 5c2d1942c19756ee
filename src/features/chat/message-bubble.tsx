import { type ComponentProps, lazy, memo, Suspense, useCallback, useMemo } from 'react'
import type { DislikeReasonRequest, Feedback, Source } from '#contracts/chat.ts'
import type { ReasonStatus } from '#machines/chat/chat-selectors.ts'
import { clockTime } from '#machines/chat/chat-time.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { listedSources } from '#machines/chat/listed-sources.ts'
import { ErrorBoundary } from '#src/components/ui/error-boundary.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { css, cx } from '../../../styled-system/css'
import { DislikeReasonForm } from './dislike-reason.tsx'
import { MessageActions } from './message-actions.tsx'
import { MessageSources } from './message-sources.tsx'
import { UncitedNote } from './uncited-note.tsx'

// Markdown and its libraries load once the person starts writing a message (preloadMarkdown)
// or with the first answer on screen, not with the dashboard: by the time a question is sent
// the renderer is there, and a fast first answer does not show its raw text for a moment. Once
// loaded, answers render it directly: through React.lazy every new bubble would suspend once.
type MarkdownComponent = typeof import('./markdown-answer.tsx').MarkdownAnswer
let loadedMarkdown: MarkdownComponent | null = null
let markdownModule: Promise<{ default: MarkdownComponent }> | null = null
const loadMarkdown = () => {
  markdownModule ??= import('./markdown-answer.tsx').then(
    (module) => {
      loadedMarkdown = module.MarkdownAnswer
      return { default: module.MarkdownAnswer }
    },
    (error: unknown) => {
      // The next preload asks again (the connection may be back).
      markdownModule = null
      throw error
    },
  )
  return markdownModule
}
const LazyMarkdownAnswer = lazy(loadMarkdown)

/** Starts loading the markdown renderer (once): an answer is on its way. */
export function preloadMarkdown(): void {
  // A failure shows when an answer needs the renderer (as plain text, logged): nothing to do here.
  loadMarkdown().catch(() => {})
}

/**
 * An answer as markdown: directly once the renderer is loaded, its raw text until then, and its
 * raw text for good when the renderer could not be loaded (the answer still reads). Memoised: a
 * bubble drawn again for its actions (rated, no longer the last) does not parse its text again.
 */
const AnswerMarkdown = memo(function AnswerMarkdown(props: ComponentProps<MarkdownComponent>) {
  const { log } = useAppDeps()
  const Loaded = loadedMarkdown
  if (Loaded) return <Loaded {...props} />
  const rawText = <p className={css({ whiteSpace: 'pre-wrap' })}>{props.text}</p>
  return (
    <ErrorBoundary
      fallback={() => rawText}
      onError={(error) => log.error('An answer could not be shown as markdown', error)}
    >
      <Suspense fallback={rawText}>
        <LazyMarkdownAnswer {...props} />
      </Suspense>
    </ErrorBoundary>
  )
})

type MessageBubbleProps = {
  message: MessageItem
  rating: boolean
  onRate: (messageId: string, feedback: Feedback) => void
  /** Given for the answer that can be written again. */
  onRegenerate?: ((messageId: string) => void) | undefined
  /** Opens a passage this answer cites beside the conversation; `opener` gets the focus back. */
  onShowSource: (messageId: string, source: Source, opener: HTMLElement) => void
  /** The last answer has as many versions as one keeps. */
  atVersionLimit: boolean
  versionsBusy: boolean
  onShowVersion: (messageId: string, version: number) => void
  /** How far asking why this answer was disliked is; null when it is not asked. */
  reasonStatus: ReasonStatus | null
  onExplainDislike: (messageId: string, why: DislikeReasonRequest) => void
  onSkipReason: () => void
}

const bubbleStyle = css({
  maxW: { base: '90%', md: '80%' },
  minW: '0',
  px: '4',
  py: '2.5',
  borderRadius: '2xl',
  // Text exactly as written: line breaks kept, long words and URLs broken rather than overflowing.
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
})
const userStyle = css({ bg: 'accent', color: 'onAccent', borderBottomRightRadius: 'sm' })
const botStyle = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderBottomLeftRadius: 'sm',
})

/**
 * One message: a person's text as written, an answer as markdown (never as HTML); its time; for
 * answers the sources, the passage a citation points at, and the actions.
 */
export const MessageBubble = memo(function MessageBubble({
  message,
  rating,
  onRate,
  onRegenerate,
  onShowSource,
  atVersionLimit,
  versionsBusy,
  onShowVersion,
  reasonStatus,
  onExplainDislike,
  onSkipReason,
}: MessageBubbleProps) {
  const mine = message.sender === 'user'
  // An answer still being written (or not yet stored) has no actions: there is nothing to rate yet.
  const settled = !message.streaming && !message.id.startsWith('temp-')
  const { id, sources } = message
  const citations = useMemo(() => sources.flatMap((s) => (s.citation ? [s.citation] : [])), [sources])
  const show = useCallback(
    (source: Source, opener: HTMLElement) => onShowSource(id, source, opener),
    [id, onShowSource],
  )
  const cite = useCallback(
    (n: number, opener: HTMLElement) => {
      const source = sources.find((s) => s.citation === n)
      if (source) show(source, opener)
    },
    [sources, show],
  )
  if (message.streaming && message.content === '') return null
  return (
    <li
      data-sender={message.sender}
      data-message-id={message.id}
      data-streaming={message.streaming}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '1',
        alignItems: mine ? 'flex-end' : 'flex-start',
      })}
    >
      <span className={css({ srOnly: true })}>{mine ? 'You said' : 'Assistant said'}</span>
      {mine ? (
        <p className={cx(bubbleStyle, userStyle)}>{message.content}</p>
      ) : (
        <div className={cx(bubbleStyle, botStyle, css({ whiteSpace: 'normal' }))}>
          <AnswerMarkdown
            text={message.content}
            citations={citations}
            checks={message.checks}
            onCite={cite}
          />
        </div>
      )}
      {mine ? null : <UncitedNote checks={message.checks} />}
      {message.stopped ? (
        <span className={css({ fontSize: 'xs', color: 'muted', fontStyle: 'italic' })}>Stopped</span>
      ) : null}
      {message.corrections.length > 0 ? (
        // D83: the words of the question none of the documents hold, and what was searched instead.
        <p
          className={css({ fontSize: 'xs', color: 'muted' })}
          title={`You typed: ${message.corrections.map((c) => c.from).join(', ')}`}
        >
          Searched for: {message.corrections.map((c) => c.to).join(', ')}
        </p>
      ) : null}
      {mine ? null : <MessageSources groups={listedSources(message)} onShow={show} />}
      <div
        className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'xs', color: 'muted' })}
      >
        <time dateTime={message.time} className={css({ whiteSpace: 'nowrap' })}>
          {clockTime(message.time)}
        </time>
        {mine || !settled ? null : (
          <MessageActions
            message={message}
            rating={rating}
            onRate={onRate}
            onRegenerate={onRegenerate}
            atVersionLimit={atVersionLimit}
            versionsBusy={versionsBusy}
            onShowVersion={onShowVersion}
          />
        )}
      </div>
      {reasonStatus && settled && (message.feedback === 'dislike' || reasonStatus === 'thanked') ? (
        <DislikeReasonForm
          messageId={message.id}
          status={reasonStatus}
          onSend={onExplainDislike}
          onSkip={onSkipReason}
        />
      ) : null}
    </li>
  )
})
