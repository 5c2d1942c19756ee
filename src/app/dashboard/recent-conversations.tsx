import { Link } from 'wouter'
import { relativeTime } from '#machines/chat/chat-time.ts'
import { useConversations } from '#src/features/chat/use-chat.ts'
import { conversationPath, fromRoot, paths } from '#src/lib/paths.ts'
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
  textDecoration: 'none',
  color: 'text',
  cursor: 'pointer',
  _hover: { bg: 'surfaceMuted' },
  // The conversation on screen: the same tint as the section it is open in.
  '&[aria-current=page]': { bg: 'brand.50', color: 'brand.700', _hover: { bg: 'brand.100' } },
})
const lineStyle = css({ truncate: true, minW: '0' })
const metaStyle = css({ color: 'muted', '[aria-current=page] &': { color: 'brand.700' } })

type RecentConversationsProps = {
  /** Show at most this many (newest first), with a link to all of them in History; all when unset. */
  limit?: number
}

/**
 * product §2 sidebar extra: each conversation with its title, last message and relative time
 * ('Just now', 'Nh ago', else the date), as a link to its address; the one on screen is marked
 * (aria-current). Under History as the spec has it, and under Chat so a person can go back to a
 * conversation without leaving the chat (D86).
 */
export function RecentConversations({ limit }: RecentConversationsProps) {
  const { conversations, loaded, selectedConversationId } = useConversations()
  // Marked only while it is what the page shows: from History the last open one is not.
  const openId = useDashboard().section === 'chat' ? selectedConversationId : null
  if (!loaded) return null
  if (conversations.length === 0) {
    return <p className={css({ px: '3', fontSize: 'sm', color: 'muted' })}>No conversations yet</p>
  }
  const now = new Date()
  const shown = limit === undefined ? conversations : conversations.slice(0, limit)
  return (
    <>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
        {shown.map((conversation) => (
          <li key={conversation.id} className={css({ minW: '0' })}>
            <Link
              href={fromRoot(conversationPath(conversation.id))}
              className={itemStyle}
              aria-current={conversation.id === openId ? 'page' : undefined}
            >
              <span className={css({ display: 'flex', gap: '2', alignItems: 'baseline', w: 'full' })}>
                <span className={cx(lineStyle, css({ flex: '1', fontSize: 'sm', fontWeight: 'medium' }))}>
                  {conversation.title}
                </span>
                <time
                  dateTime={conversation.timestamp}
                  className={cx(metaStyle, css({ fontSize: 'xs', flexShrink: 0 }))}
                >
                  {relativeTime(conversation.timestamp, now)}
                </time>
              </span>
              {conversation.lastMessage ? (
                <span className={cx(lineStyle, metaStyle, css({ fontSize: 'xs', w: 'full' }))}>
                  {conversation.lastMessage}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
      {shown.length < conversations.length ? (
        <Link
          href={fromRoot(paths.history)}
          className={css({ px: '3', fontSize: 'sm', color: 'accent', textDecoration: 'underline' })}
        >
          {`All conversations (${conversations.length})`}
        </Link>
      ) : null}
    </>
  )
}
