/**
 * Where a published assistant is (issue 37, D121): its public page, the embed script and the
 * inline frame, each with Copy, and a preview. The preview opens the widget's own page in a window
 * of its own: the widget refuses to be framed by any site but the allowed ones, this app included.
 */
import type { Assistant } from '#contracts/assistants.ts'
import { Button } from '#src/components/ui/button.tsx'
import { useCopyText } from '#src/components/ui/use-copy-text.ts'
import { codeBlock } from '#src/theme/code-block.ts'
import { css } from '../../../styled-system/css'

const subheadingStyle = css({ fontSize: 'md', fontWeight: 'semibold' })
const linkStyle = css({ color: 'accent', textDecoration: 'underline', wordBreak: 'break-all' })
const hint = css({ fontSize: 'xs', color: 'muted' })

/** The server's own address: the app, the public page and the widget are served by one origin. */
export const siteOrigin = () => window.location.origin

export function embedScript(origin: string, publicId: string): string {
  return `<script src="${origin}/embed.js" data-assistant="${publicId}" async></script>`
}

export function embedFrame(origin: string, publicId: string, name: string): string {
  const title = name.replaceAll('"', '&quot;')
  return `<iframe src="${origin}/embed/${publicId}" title="${title}" width="400" height="600" style="border:0"></iframe>`
}

export function PublishShare({ assistant }: { assistant: Assistant }) {
  const { publicId } = assistant
  if (!assistant.published || publicId === null)
    return (
      <p className={css({ fontSize: 'sm', color: 'muted' })}>
        Once it is published and saved, its public page and the code for your website show here.
      </p>
    )
  const origin = siteOrigin()
  const page = `${origin}/a/${publicId}`
  return (
    <section
      aria-labelledby="share-heading"
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <h3 id="share-heading" className={subheadingStyle}>
        Where visitors find it
      </h3>
      <div>
        <p className={css({ fontSize: 'sm', fontWeight: 'medium' })}>Public page</p>
        {assistant.publicPage ? (
          <a href={page} target="_blank" rel="noopener noreferrer" className={linkStyle}>
            {page}
          </a>
        ) : (
          <p className={hint}>The public page is off: the assistant is only in the widget on your sites.</p>
        )}
      </div>
      <Snippet
        label="Embed script"
        hint="Put it in your pages, before </body>: it adds a chat button in a corner."
        code={embedScript(origin, publicId)}
      />
      <Snippet
        label="Inline frame"
        hint="For a page that shows the chat in its own content."
        code={embedFrame(origin, publicId, assistant.name)}
      />
      <div>
        <a
          href={`${origin}/embed/${publicId}`}
          target="_blank"
          rel="noopener noreferrer"
          className={linkStyle}
        >
          Preview the widget
        </a>
        <p className={hint}>
          Opens the widget in a window of its own, as visitors see it (only your allowed sites may show it
          inside a page). Questions asked there are visitor conversations: they count in the budgets and show
          in the inbox.
        </p>
      </div>
    </section>
  )
}

function Snippet({ label, hint: says, code }: { label: string; hint: string; code: string }) {
  const { copied, copy } = useCopyText(code)
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <div
        className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'space-between' })}
      >
        <p className={css({ fontSize: 'sm', fontWeight: 'medium' })}>{label}</p>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          aria-label={`Copy the ${label.toLowerCase()}`}
          onClick={copy}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className={hint}>{says}</p>
      <pre className={codeBlock}>
        <code>{code}</code>
      </pre>
    </div>
  )
}
