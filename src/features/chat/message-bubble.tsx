import type { Feedback } from '#contracts/chat.ts'
import { clockTime } from '#machines/chat/chat-time.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { css, cx } from '../../../styled-system/css'
import { MessageActions } from './message-actions.tsx'
import { MessageSources } from './message-sources.tsx'

type MessageBubbleProps = {
  message: MessageItem
  rating: boolean
  onRate: (messageId: string, feedback: Feedback) => void
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

/** One message: its text (as text, never as HTML), its time, and for answers the sources and actions. */
export function MessageBubble({ message, rating, onRate }: MessageBubbleProps) {
  const mine = message.sender === 'user'
  return (
    <li
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '1',
        alignItems: mine ? 'flex-end' : 'flex-start',
      })}
    >
      <span className={css({ srOnly: true })}>{mine ? 'You said' : 'Assistant said'}</span>
      <p className={cx(bubbleStyle, mine ? userStyle : botStyle)}>{message.content}</p>
      {mine ? null : <MessageSources sources={message.sources} />}
      <div
        className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'xs', color: 'muted' })}
      >
        <time dateTime={message.time}>{clockTime(message.time)}</time>
        {mine ? null : <MessageActions message={message} rating={rating} onRate={onRate} />}
      </div>
    </li>
  )
}
