import { css } from '../../../styled-system/css'

const dotStyle = css({
  w: '2',
  h: '2',
  borderRadius: 'full',
  bg: 'muted',
  animation: 'pulse',
  '&:nth-child(2)': { animationDelay: '0.2s' },
  '&:nth-child(3)': { animationDelay: '0.4s' },
})

/** product §2: shown while the reply is awaited; announced politely, the dots themselves are decoration. */
export function TypingIndicator() {
  return (
    <div
      role="status"
      aria-label="Assistant is typing"
      className={css({
        display: 'inline-flex',
        gap: '1.5',
        alignSelf: 'flex-start',
        px: '4',
        py: '3',
        bg: 'surface',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: '2xl',
      })}
    >
      {/* Live regions read text, not labels: this is what the conversation log announces. */}
      <span className={css({ srOnly: true })}>Assistant is typing</span>
      <span aria-hidden="true" className={dotStyle} />
      <span aria-hidden="true" className={dotStyle} />
      <span aria-hidden="true" className={dotStyle} />
    </div>
  )
}
