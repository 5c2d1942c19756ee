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

/**
 * Brings the newest message into view; called by the end marker each time it is (re)mounted. A
 * finished answer shows from its start (it is read from the top) under the question it answers,
 * whole, when that question takes less than half the list (issue 40, item 9: it was left half
 * hidden under the bar); anything else, from the end.
 */
function scrollToNewest(marker: HTMLElement | null) {
  const list = marker?.parentElement
  if (!list) return
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
      <ol className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
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
        ref={scrollToNewest}
        aria-hidden="true"
      />
    </div>
  )
}
