import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import { Link } from 'wouter'
import type { Scope } from '#contracts/chat.ts'
import { provideFirstRunMachine } from '#machines/first-run/first-run-machine.ts'
import { createAuthApi } from '#src/api/auth.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { Button } from '#src/components/ui/button.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { fromRoot, paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'

const noteStyle = css({ fontSize: 'sm', color: 'muted', maxW: 'md', textAlign: 'center' })
const linkStyle = css({ color: 'accent', textDecoration: 'underline' })

/**
 * Under the empty chat (D86): how many documents are ready to ask about, or that there are none
 * yet and where to add some (Google Drive only where this server has it, D133), and up to three
 * starter questions from the person's own documents' headings, each sent as the first message
 * when chosen. A chat limited to chosen documents (D70) names them instead, with no questions
 * about the others. Nothing while it loads or if it cannot.
 */
export function FirstRun({ onAsk, scope }: { onAsk: (question: string) => void; scope: Scope | null }) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() =>
    provideFirstRunMachine({
      ...createDocumentsApi(http),
      driveConfigured: async () => (await createAuthApi(http).options()).google,
    }),
  )
  const actor = useActorRef(logic, { inspect })
  const firstRun = useSelector(actor, (snapshot) => snapshot.context.firstRun)
  if (scope !== null && scope.documents.length > 0) return <p className={noteStyle}>{scopedOffer(scope)}</p>
  if (!firstRun) return null
  if (firstRun.ready === 0)
    return firstRun.drive ? (
      <p className={noteStyle}>
        No documents are ready yet.{' '}
        <Link href={fromRoot(paths.integrations)} className={linkStyle}>
          Connect Google Drive
        </Link>{' '}
        and ingest your documents, or attach a file with the paperclip.
      </p>
    ) : (
      <p className={noteStyle}>
        No documents are ready yet.{' '}
        <Link href={fromRoot(paths.docs)} className={linkStyle}>
          Upload a document
        </Link>{' '}
        to your library, or attach a file with the paperclip.
      </p>
    )
  return (
    <section
      aria-label="Start from your documents"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: '3',
        maxW: 'xl',
      })}
    >
      <p className={css({ fontSize: 'sm', color: 'muted' })}>
        {`${firstRun.ready} ${firstRun.ready === 1 ? 'document is' : 'documents are'} ready to ask about.`}
      </p>
      {firstRun.questions.length > 0 ? (
        <ul
          aria-label="Starter questions"
          className={css({ display: 'flex', flexDirection: 'column', gap: '2', w: 'full' })}
        >
          {firstRun.questions.map((question) => (
            <li key={question}>
              <Button
                variant="secondary"
                block
                className={css({
                  justifyContent: 'flex-start',
                  textAlign: 'left',
                  h: 'auto',
                  py: '2',
                  whiteSpace: 'normal',
                })}
                onClick={() => onAsk(question)}
              >
                {question}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

/** What a limited chat asks about: the one document by name, or how many were chosen. */
function scopedOffer(scope: Scope): string {
  const [only] = scope.documents
  if (scope.documents.length === 1 && only) return `Ask about ${only.name}.`
  return `Ask about the ${scope.documents.length} documents this conversation is limited to.`
}
