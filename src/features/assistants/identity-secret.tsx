/**
 * The identity secret (issue 37): with it the host site signs a short token saying which of its
 * signed-in users is asking. Made or rotated here (a rotation asked first: the old one stops
 * working), then shown once in a dialog with Copy and an example of signing a token.
 */
import type { Assistant } from '#contracts/assistants.ts'
import { Button } from '#src/components/ui/button.tsx'
import { CopyableSecret } from '#src/components/ui/copyable-secret.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { codeBlock } from '#src/theme/code-block.ts'
import { css } from '../../../styled-system/css'
import { siteOrigin } from './publish-share.tsx'
import type { Publish } from './use-publish.ts'

const textStyle = css({ fontSize: 'sm' })

/** How the host site signs a visitor's token: HS256, for this assistant, expiring within 10 minutes. */
export function tokenExample(origin: string, publicId: string | null): string {
  const audience = publicId ?? 'PUBLIC_ID'
  return [
    '// On your server (Node, with the jsonwebtoken package):',
    'const token = jwt.sign(',
    '  { sub: user.id, name: user.name, email: user.email },',
    '  process.env.DOCCHAT_IDENTITY_SECRET,',
    `  { algorithm: 'HS256', audience: '${audience}', expiresIn: '10m' },`,
    ')',
    '// In the page you send that user:',
    `<script src="${origin}/embed.js" data-assistant="${audience}" data-user-token="{token}" async></script>`,
  ].join('\n')
}

export function IdentitySecret({ assistant, publish }: { assistant: Assistant; publish: Publish }) {
  return (
    <section
      aria-labelledby="identity-heading"
      className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
    >
      <h3 id="identity-heading" className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
        Signed-in visitors
      </h3>
      <p className={textStyle}>
        Your site can tell the assistant which of its signed-in users is asking, with a token it signs with
        this assistant's secret. You then see their names in the inbox.
      </p>
      <p className={css({ fontSize: 'xs', color: 'muted' })}>
        {assistant.hasIdentitySecret ? 'A secret is set.' : 'No secret yet: every visitor is anonymous.'}
      </p>
      <Button
        type="button"
        variant="secondary"
        className={css({ alignSelf: 'flex-start' })}
        disabled={publish.makingSecret}
        onClick={publish.makeSecret}
      >
        {assistant.hasIdentitySecret ? 'Rotate the secret' : 'Make a secret'}
      </Button>
      {publish.confirmingRotate ? <RotateDialog publish={publish} /> : null}
      {publish.secret !== null ? (
        <SecretDialog secret={publish.secret} publicId={assistant.publicId} onClose={publish.closeSecret} />
      ) : null}
    </section>
  )
}

function RotateDialog({ publish }: { publish: Publish }) {
  return (
    <Dialog
      title="Rotate the secret?"
      onClose={publish.cancelRotate}
      footer={
        <>
          <Button variant="secondary" onClick={publish.cancelRotate}>
            Cancel
          </Button>
          <Button onClick={publish.confirmRotate}>Rotate</Button>
        </>
      }
    >
      <p className={textStyle}>
        The old secret stops working at once: tokens your site signs with it are refused until it uses the new
        one.
      </p>
    </Dialog>
  )
}

type SecretDialogProps = { secret: string; publicId: string | null; onClose: () => void }

function SecretDialog({ secret, publicId, onClose }: SecretDialogProps) {
  return (
    <Dialog title="The identity secret" onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <p className={textStyle}>
          Copy it now: it is shown only this once. Keep it on your server, never in a page. Any older secret
          no longer works.
        </p>
        <CopyableSecret value={secret} copyLabel="Copy the secret" />
        <p className={textStyle}>
          Sign a token for the visitor (HS256, audience the assistant's public id, the user's id as subject,
          expiring within 10 minutes):
        </p>
        <pre className={codeBlock}>
          <code>{tokenExample(siteOrigin(), publicId)}</code>
        </pre>
      </div>
    </Dialog>
  )
}
