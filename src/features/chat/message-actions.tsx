import { type Feedback, MAX_ANSWER_VERSIONS } from '#contracts/chat.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { Button } from '#src/components/ui/button.tsx'
import { CheckIcon, CopyIcon, ThumbsDownIcon, ThumbsUpIcon } from '#src/components/ui/dashboard-icons.tsx'
import { useCopyText } from '#src/components/ui/use-copy-text.ts'
import { css } from '../../../styled-system/css'
import { AnswerVersions } from './answer-versions.tsx'

type MessageActionsProps = {
  message: MessageItem
  /** Feedback for this answer is on its way: one choice at a time. */
  rating: boolean
  onRate: (messageId: string, feedback: Feedback) => void
  onRegenerate?: ((messageId: string) => void) | undefined
  /** The last answer has as many versions as one keeps: Regenerate gives way to a note. */
  atVersionLimit: boolean
  /** Another version is on its way, or an answer is being written: ‹ › wait. */
  versionsBusy: boolean
  onShowVersion: (messageId: string, version: number) => void
}

const pressedStyle = css({ '&[aria-pressed=true]': { color: 'accent', bg: 'brand.50' } })

// Like and Dislike wait while a choice is on its way with aria-disabled, not disabled: a disabled
// button drops the focus to the page, and the person pressing Enter on it would lose their place.

/**
 * Under a bot answer: its versions (‹ 1/2 ›, once written again), copy it, like or dislike it
 * (highlighted once the server stored it), and for the last answer, write it again.
 */
export function MessageActions({
  message,
  rating,
  onRate,
  onRegenerate,
  atVersionLimit,
  versionsBusy,
  onShowVersion,
}: MessageActionsProps) {
  const { copied, copy } = useCopyText(message.content)
  return (
    // On a narrow screen the actions wrap onto a second line rather than being cut off.
    <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1' })}>
      {message.versionCount > 1 ? (
        <AnswerVersions
          version={message.version}
          versionCount={message.versionCount}
          busy={versionsBusy}
          onShow={(version) => onShowVersion(message.id, version)}
        />
      ) : null}
      <Button variant="ghost" size="sm" onClick={copy}>
        {copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
        <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Like"
        aria-pressed={message.feedback === 'like'}
        aria-disabled={rating || undefined}
        className={pressedStyle}
        onClick={() => rating || onRate(message.id, 'like')}
      >
        <ThumbsUpIcon size={14} />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Dislike"
        aria-pressed={message.feedback === 'dislike'}
        aria-disabled={rating || undefined}
        className={pressedStyle}
        onClick={() => rating || onRate(message.id, 'dislike')}
      >
        <ThumbsDownIcon size={14} />
      </Button>
      {onRegenerate ? (
        <Button variant="ghost" size="sm" onClick={() => onRegenerate(message.id)}>
          Regenerate
        </Button>
      ) : atVersionLimit ? (
        <span className={css({ px: '2' })}>{MAX_ANSWER_VERSIONS} versions, the most an answer keeps</span>
      ) : null}
    </div>
  )
}
