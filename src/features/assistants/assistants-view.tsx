/**
 * The Assistants section (issue 36): one card per assistant (its name, description and what it
 * knows) linking to its page, and "New assistant", which creates one and opens its page.
 */
import { useCallback } from 'react'
import { Link, useLocation } from 'wouter'
import type { AssistantSummary } from '#contracts/assistants.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { AssistantIcon, PlusIcon } from '#src/components/ui/dashboard-icons.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { card } from '#src/theme/card.ts'
import { css } from '../../../styled-system/css'
import { useAssistantsList } from './use-assistants.ts'

const gridStyle = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
})
const cardLinkStyle = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  textDecoration: 'none',
  color: 'text',
  _hover: { borderColor: 'accent' },
  _focusVisible: { outline: 'none', boxShadow: 'focusRing' },
})

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/** What an assistant knows, in a line: "3 documents · 1 Drive folder", or "3 documents" without folders. */
export function countsOf(assistant: Pick<AssistantSummary, 'documentCount' | 'folderCount'>): string {
  const documents = plural(assistant.documentCount, 'document', 'documents')
  if (assistant.folderCount === 0) return documents
  return `${documents} · ${plural(assistant.folderCount, 'Drive folder', 'Drive folders')}`
}

function AssistantCard({ assistant }: { assistant: AssistantSummary }) {
  return (
    <li>
      <Link
        href={`/assistants/${encodeURIComponent(assistant._id)}`}
        className={`${card()} ${cardLinkStyle}`}
      >
        <h2 className={css({ fontWeight: 'semibold', truncate: true })}>{assistant.name}</h2>
        {assistant.description ? (
          <p className={css({ fontSize: 'sm', color: 'muted', lineClamp: '2' })}>{assistant.description}</p>
        ) : null}
        <p className={css({ fontSize: 'xs', color: 'muted', mt: 'auto' })}>
          {countsOf(assistant)}
          {assistant.answerPolicy === 'documents-only' ? ' · Only from its documents' : ''}
        </p>
      </Link>
    </li>
  )
}

export function AssistantsView() {
  const [, navigate] = useLocation()
  const open = useCallback((id: string) => navigate(`/assistants/${encodeURIComponent(id)}`), [navigate])
  const { assistants, loading, creating, problem, create } = useAssistantsList(open)
  return (
    <section>
      <SectionHeader
        title="Assistants"
        subtitle="Build assistants that answer from the documents and Drive folders you choose."
        actions={
          <Button onClick={create} disabled={creating || loading}>
            <PlusIcon size={16} />
            New assistant
          </Button>
        }
      />
      {problem ? <Alert>{problem}</Alert> : null}
      {!loading && assistants.length === 0 ? (
        <EmptyState icon={<AssistantIcon size={24} />} title="No assistants yet">
          Create one with New assistant: give it instructions, choose what it may read, and try it.
        </EmptyState>
      ) : (
        <ul className={gridStyle} aria-busy={loading}>
          {assistants.map((assistant) => (
            <AssistantCard key={assistant._id} assistant={assistant} />
          ))}
        </ul>
      )}
    </section>
  )
}
