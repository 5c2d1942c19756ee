/** One visitor conversation in the inbox (issue 37): its messages, and the cited passages as the visitor saw them. */
import type { InboxConversation, OpenConversation } from '#machines/assistants/inbox-types.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { card } from '#src/theme/card.ts'
import { css } from '../../../styled-system/css'

const muted = css({ fontSize: 'xs', color: 'muted' })

/** A visitor as the owner knows them: the signed name (or id), else the anonymous label. */
export function visitorLabel(visitor: InboxConversation['visitor']): string {
  if (visitor.signed) return visitor.name ?? visitor.email ?? visitor.id
  return `Visitor ${visitor.id}`
}

type Props = {
  open: OpenConversation | null
  opening: boolean
  problem: string | null
  onClose: () => void
  onDelete: (conversationId: string) => void
}

export function InboxConversationPane({ open, opening, problem, onClose, onDelete }: Props) {
  return (
    <section aria-label="Conversation" className={card()}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2', mb: '3' })}>
        <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
          {open ? visitorLabel(open.conversation.visitor) : 'Conversation'}
        </h2>
        <div className={css({ display: 'flex', gap: '2' })}>
          {open ? (
            <Button variant="ghost" size="sm" onClick={() => onDelete(open.conversation._id)}>
              Delete conversation
            </Button>
          ) : null}
          <Button variant="secondary" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      {opening ? <p className={muted}>Loading the conversation…</p> : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {open && !opening ? (
        <ol className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {open.messages.map((message) => (
            <li key={message._id}>
              <p className={css({ fontSize: 'xs', fontWeight: 'semibold' })}>
                {message.isUser ? 'Visitor' : 'Assistant'}
                {message.feedback ? ` · ${message.feedback === 'like' ? 'Liked' : 'Disliked'}` : ''}
              </p>
              <p className={css({ fontSize: 'sm', whiteSpace: 'pre-wrap' })}>{message.content}</p>
              {message.sources.length > 0 ? (
                <ul aria-label="What the visitor saw of the sources" className={css({ mt: '1' })}>
                  {message.sources.map((source) => (
                    <li key={source.citation} className={muted}>
                      [{source.citation}] {source.documentName ?? 'A document (name hidden)'}
                      {source.page !== null ? `, page ${source.page}` : ''}: “{source.snippet}”
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  )
}
