import {
  type DislikeReasonRequest,
  type Feedback,
  MAX_ANSWER_VERSIONS,
  type Source,
} from '#contracts/chat.ts'
import type { ReasonStatus } from '#machines/chat/chat-selectors.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { css } from '../../../styled-system/css'
import { MessageBubble } from './message-bubble.tsx'
import { TypingIndicator } from './typing-indicator.tsx'

type MessageListProps = {
  messages: MessageItem[]
  awaitingReply: boolean
  ratingMessageIds: string[]
  onRate: (messageId: string, feedback: Feedback) => void
  /** The answer that can be written again (the last one), if any. */
  regenerableId: string | null
  onRegenerate: (messageId: string) => void
  onShowSource: (messageId: string, source: Source, opener: HTMLElement) => void
  /** An answer is being written or a conversation loads: no version switch meanwhile. */
  busy: boolean
  switchingVersionIds: string[]
  onShowVersion: (messageId: string, version: number) => void
  reasonAsk: { messageId: string; status: ReasonStatus } | null
  onExplainDislike: (messageId: string, why: DislikeReasonRequest) => void
  onSkipReason: () => void
}

// Room left above the message brought to the top, so it never touches the conversation's bar.
const TOP_MARGIN_PX = 8
// The messages one under another: as blocks with a margin, not a column flexbox with a gap (the
// same look): a flexbox measures every item again whenever one grows, and an answer grows with
// each token (~40% of a frame's layout at 60 messages).
const listStyle = css({ '& > li + li': { mt: '4' } })
/** Lists whose scroll to the newest message waits for the next frame. */
const scrollPending = new WeakSet<HTMLElement>()

/**
 * Brings the newest message into view; asked by the end marker each time it is (re)mounted, and
 * done once per frame, just before it is drawn: measuring forces the browser to lay the page out
 * there and then, and answers' tokens arrive faster than frames (each one paid a full layout, and
 * the first token waited for the second's before it was painted). A finished answer shows from
 * its start (it is read from the top) under the question it answers, whole, when that question
 * takes less than half the list (issue 40, item 9: it was left half hidden under the bar);
 * anything else, from the end.
 */
function scrollToNewestSoon(marker: HTMLElement | null) {
  const list = marker?.parentElement
  if (!list || scrollPending.has(list)) return
  scrollPending.add(list)
  const scroll = () => {
    scrollPending.delete(list)
    if (list.isConnected) scrollToNewest(list)
  }
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(scroll)
  else scroll()
}

function scrollToNewest(list: HTMLElement) {
  const last = list.querySelector<HTMLElement>('ol > li:last-child')
  if (last?.dataset.sender === 'bot' && last.dataset.streaming !== 'true') {
    const question = last.previousElementSibling
    const fits =
      question instanceof HTMLElement && question.getBoundingClientRect().height < list.clientHeight / 2
    const target = fits ? question : last
    list.scrollTop += target.getBoundingClientRect().top - list.getBoundingClientRect().top - TOP_MARGIN_PX
  } else {
    list.scrollTop = list.scrollHeight
  }
}

/** The conversation, oldest first, kept scrolled to the newest message. */
export function MessageList({
  messages,
  awaitingReply,
  ratingMessageIds,
  onRate,
  regenerableId,
  onRegenerate,
  onShowSource,
  busy,
  switchingVersionIds,
  onShowVersion,
  reasonAsk,
  onExplainDislike,
  onSkipReason,
}: MessageListProps) {
  const last = messages.at(-1)
  return (
    <div
      role="log"
      aria-label="Conversation"
      className={css({
        flex: '1',
        minH: '0',
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: '4',
        pb: '4',
      })}
    >
      <ol className={listStyle}>
        {messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            rating={ratingMessageIds.includes(message.id)}
            onRate={onRate}
            onRegenerate={message.id === regenerableId ? onRegenerate : undefined}
            onShowSource={onShowSource}
            atVersionLimit={
              message === last && message.sender === 'bot' && message.versionCount >= MAX_ANSWER_VERSIONS
            }
            // Only an answer with versions shows their arrows: the others keep their props (and
            // their memoised bubbles) when an answer starts or ends.
            versionsBusy={message.versionCount > 1 && (busy || switchingVersionIds.includes(message.id))}
            onShowVersion={onShowVersion}
            reasonStatus={reasonAsk?.messageId === message.id ? reasonAsk.status : null}
            onExplainDislike={onExplainDislike}
            onSkipReason={onSkipReason}
          />
        ))}
      </ol>
      {awaitingReply ? <TypingIndicator /> : null}
      {/* A new key on every change remounts the marker, and its ref scrolls to the newest message. */}
      <div
        key={`${messages.length}:${awaitingReply}:${last?.streaming ? last.content.length : last?.id}`}
        ref={scrollToNewestSoon}
        aria-hidden="true"
      />
    </div>
  )
}
