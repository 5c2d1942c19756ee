/**
 * The owner's inbox of an assistant's visitor conversations (issue 37): All or Unanswered, paged
 * with "Show more", one conversation beside the list, the most asked questions and the per-day
 * chart, Export CSV, and Delete one or all (asked first in a dialog).
 */
import { Link } from 'wouter'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { button } from '#src/theme/button.ts'
import { card } from '#src/theme/card.ts'
import { css, cx } from '../../../styled-system/css'
import { InboxChart } from './inbox-chart.tsx'
import { InboxConversationPane, visitorLabel } from './inbox-conversation.tsx'
import type { InboxFacade } from './use-inbox.ts'

const muted = css({ fontSize: 'sm', color: 'muted' })
const backStyle = css({
  fontSize: 'sm',
  color: 'muted',
  textDecoration: 'underline',
  _hover: { color: 'text' },
})
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function InboxView({ inbox }: { inbox: InboxFacade }) {
  const { assistant } = inbox
  if (inbox.status === 'loading') return <p className={muted}>Loading the conversations…</p>
  if (inbox.status === 'missing')
    return (
      <section>
        <SectionHeader title="Assistant not found" />
        <p>This assistant does not exist, or it was deleted.</p>
        <Link href="/assistants" className={backStyle}>
          Back to your assistants
        </Link>
      </section>
    )
  if (inbox.status === 'failed' || !assistant)
    return (
      <section>
        <Alert>{inbox.problem}</Alert>
        <Button onClick={inbox.retry}>Try again</Button>
      </section>
    )
  return (
    <section className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <Link href={`/assistants/${encodeURIComponent(assistant._id)}`} className={backStyle}>
        Back to {assistant.name}
      </Link>
      <SectionHeader title="Visitor conversations" subtitle={`What visitors asked ${assistant.name}.`} />
      <p className={muted}>
        {assistant.published ? '' : 'This assistant is not published: visitors cannot reach it now. '}
        Visitor conversations are kept {assistant.retentionDays} days, then deleted.
      </p>
      <Toolbar inbox={inbox} />
      {inbox.notice ? (
        <p role="status" className={muted}>
          {inbox.notice}
        </p>
      ) : null}
      {inbox.problem && inbox.pendingDelete === null ? <Alert>{inbox.problem}</Alert> : null}
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(18rem, 28rem)' },
          alignItems: 'start',
        })}
      >
        <ConversationList inbox={inbox} />
        {inbox.selectedId ? (
          <InboxConversationPane
            open={inbox.open}
            opening={inbox.opening}
            problem={inbox.openProblem}
            onClose={inbox.close}
            onDelete={inbox.askDelete}
          />
        ) : (
          <Insights inbox={inbox} />
        )}
      </div>
      {inbox.pendingDelete !== null ? <DeleteDialog inbox={inbox} /> : null}
    </section>
  )
}

function Toolbar({ inbox }: { inbox: InboxFacade }) {
  return (
    <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}>
      <fieldset className={css({ display: 'flex', gap: '1', alignItems: 'center' })}>
        <legend className={css({ srOnly: true })}>Show</legend>
        {(['all', 'unanswered'] as const).map((filter) => (
          <Button
            key={filter}
            size="sm"
            variant={inbox.filter === filter ? 'primary' : 'secondary'}
            aria-pressed={inbox.filter === filter}
            onClick={() => inbox.setFilter(filter)}
          >
            {filter === 'all' ? 'All' : 'Unanswered'}
          </Button>
        ))}
      </fieldset>
      <a href={inbox.csvUrl} download className={button({ variant: 'secondary', size: 'sm' })}>
        Export CSV
      </a>
      <Button
        variant="ghost"
        size="sm"
        disabled={inbox.conversations.length === 0}
        onClick={() => inbox.askDelete(null)}
      >
        Delete all
      </Button>
      <p className={css({ fontSize: 'xs', color: 'muted', w: 'full' })}>
        Unanswered: answers that found nothing relevant, fell back, or that the visitor disliked.
      </p>
    </div>
  )
}

function ConversationList({ inbox }: { inbox: InboxFacade }) {
  if (inbox.conversations.length === 0)
    return (
      <p className={muted}>
        {inbox.filter === 'unanswered' ? 'No unanswered conversations.' : 'No visitor conversations yet.'}
      </p>
    )
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <ul
        aria-label="Visitor conversations"
        className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
      >
        {inbox.conversations.map((c) => (
          <li key={c._id}>
            <button
              type="button"
              aria-current={inbox.selectedId === c._id ? 'true' : undefined}
              onClick={() => inbox.openConversation(c._id)}
              className={cx(
                card({ variant: 'row' }),
                css({ w: 'full', textAlign: 'left', p: '3', cursor: 'pointer' }),
              )}
            >
              <span className={css({ display: 'block', fontSize: 'sm', fontWeight: 'medium' })}>
                {c.firstQuestion}
              </span>
              <span className={css({ display: 'block', fontSize: 'xs', color: 'muted' })}>
                {visitorLabel(c.visitor)} · {when.format(new Date(c.createdAt))} · {c.messageCount}{' '}
                {c.messageCount === 1 ? 'message' : 'messages'} · {c.likes} liked, {c.dislikes} disliked
                {c.unanswered ? ' · Unanswered' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {inbox.hasMore ? (
        <Button variant="secondary" size="sm" disabled={inbox.paging} onClick={inbox.more}>
          {inbox.paging ? 'Loading…' : 'Show more'}
        </Button>
      ) : null}
    </div>
  )
}

function Insights({ inbox }: { inbox: InboxFacade }) {
  const { days7, days30 } = inbox.topQuestions
  return (
    <aside
      aria-label="At a glance"
      className={cx(card(), css({ display: 'flex', flexDirection: 'column', gap: '4' }))}
    >
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>Most asked</h2>
      {[
        ['Last 7 days', days7],
        ['Last 30 days', days30],
      ].map(([label, questions]) => (
        <TopQuestions key={label as string} label={label as string} questions={questions as typeof days7} />
      ))}
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>The last 30 days</h2>
      <InboxChart days={inbox.perDay} />
    </aside>
  )
}

function TopQuestions({
  label,
  questions,
}: {
  label: string
  questions: { question: string; count: number }[]
}) {
  return (
    <div>
      <h3 className={css({ fontSize: 'sm', fontWeight: 'medium' })}>{label}</h3>
      {questions.length === 0 ? (
        <p className={muted}>Nothing asked yet.</p>
      ) : (
        <ol className={css({ fontSize: 'sm', listStyle: 'decimal', pl: '5' })}>
          {questions.map((q) => (
            <li key={q.question}>
              {q.question} <span className={css({ color: 'muted' })}>({q.count})</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

function DeleteDialog({ inbox }: { inbox: InboxFacade }) {
  const all = inbox.pendingDelete === 'all'
  return (
    <Dialog
      title={all ? 'Delete every visitor conversation?' : 'Delete this conversation?'}
      onClose={inbox.cancelDelete}
      footer={
        <>
          <Button variant="secondary" onClick={inbox.cancelDelete} disabled={inbox.deleting}>
            Cancel
          </Button>
          <Button onClick={inbox.confirmDelete} disabled={inbox.deleting}>
            {inbox.deleting ? 'Deleting…' : all ? 'Delete all' : 'Delete'}
          </Button>
        </>
      }
    >
      <p className={css({ fontSize: 'sm' })}>
        {all
          ? 'Every conversation visitors had with this assistant goes for good, for every filter.'
          : 'The conversation goes for good.'}
      </p>
      {inbox.problem ? <Alert>{inbox.problem}</Alert> : null}
    </Dialog>
  )
}
