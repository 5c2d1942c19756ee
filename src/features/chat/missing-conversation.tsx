import { Link } from 'wouter'
import { ChatIcon } from '#src/components/ui/dashboard-icons.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { fromRoot, paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'

/**
 * A `/dashboard/c/{id}` the server does not know for this person (deleted, or never theirs): said
 * plainly, with the way to a new chat, instead of an empty chat that would pass for a new one.
 */
export function MissingConversation() {
  return (
    <section
      aria-label="Chat with Docs"
      className={css({ display: 'grid', placeItems: 'center', h: 'full' })}
    >
      <EmptyState icon={<ChatIcon size={24} />} title="Conversation not found">
        <span role="alert">This conversation does not exist or was deleted.</span>
        <Link
          href={fromRoot(paths.chat)}
          className={css({ display: 'block', mt: '3', color: 'accent', textDecoration: 'underline' })}
        >
          Start a new chat
        </Link>
      </EmptyState>
    </section>
  )
}
