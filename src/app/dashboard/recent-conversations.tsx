import { relativeTime } from '#machines/chat/chat-time.ts'
import { useConversations } from '#src/features/chat/use-chat.ts'
import { css, cx } from '../../../styled-system/css'
import { useDashboard } from './use-dashboard.ts'

const itemStyle = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '0.5',
  w: 'full',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  textAlign: 'left',
  cursor: 'pointer',
  _hover: { bg: 'surfaceMuted' },
})
const lineStyle = css({ truncate: true, minW: '0' })

/**
 * product §2 sidebar extra under History: each conversation with its title, last message and
 * relative time ('Just now', 'Nh ago', else the date). Choosing one opens it in Chat, as in History.
 */
export function RecentConversations() {
  const { conversations, loaded } = useConversations()
  const { openConversation } = useDashboard()
  if (!loaded) return null
  if (conversations.length === 0) {
    return <p className={css({ px: '3', fontSize: 'sm', color: 'muted' })}>No conversations yet</p>
  }
  const now = new Date()
  return (
    <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      {conversations.map((conversation) => (
        <li key={conversation.id} className={css({ minW: '0' })}>
          <button type="button" className={itemStyle} onClick={() => openConversation(conversation.id)}>
            <span className={css({ display: 'flex', gap: '2', alignItems: 'baseline', w: 'full' })}>
              <span className={cx(lineStyle, css({ flex: '1', fontSize: 'sm', fontWeight: 'medium' }))}>
                {conversation.title}
              </span>
              <time
                dateTime={conversation.timestamp}
                className={css({ fontSize: 'xs', color: 'muted', flexShrink: 0 })}
              >
                {relativeTime(conversation.timestamp, now)}
              </time>
            </span>
            {conversation.lastMessage ? (
              <span className={cx(lineStyle, css({ fontSize: 'xs', color: 'muted', w: 'full' }))}>
                {conversation.lastMessage}
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  )
}
