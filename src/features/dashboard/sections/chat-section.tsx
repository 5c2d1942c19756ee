import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { ChatIcon, SendIcon } from '#src/components/ui/icons.tsx'
import { css } from '../../../../styled-system/css'

/**
 * SPEC §2 Chat view, empty for now: the chat feature brings messages and makes the composer
 * work (it stays disabled until then).
 */
export function ChatSection() {
  return (
    <section
      aria-label="Chat with Docs"
      className={css({ display: 'flex', flexDirection: 'column', minH: 'full', maxW: '3xl', mx: 'auto' })}
    >
      <div className={css({ flex: '1', display: 'grid', placeItems: 'center' })}>
        <EmptyState icon={<ChatIcon size={24} />} title="Start a conversation">
          Ask questions about your documents or start a general conversation. I'm here to help!
        </EmptyState>
      </div>
      <form className={css({ mt: '6' })} onSubmit={(event) => event.preventDefault()}>
        <div
          className={css({
            display: 'flex',
            alignItems: 'flex-end',
            gap: '2',
            p: '2',
            bg: 'surface',
            borderWidth: '1px',
            borderColor: 'border',
            borderRadius: 'xl',
            boxShadow: 'sm',
          })}
        >
          <textarea
            aria-label="Message"
            placeholder="Type your message..."
            rows={1}
            disabled
            className={css({
              flex: '1',
              resize: 'none',
              px: '2',
              py: '2',
              bg: 'transparent',
              _focusVisible: { outline: 'none' },
              _disabled: { cursor: 'not-allowed' },
            })}
          />
          <Button type="submit" size="icon" aria-label="Send message" disabled>
            <SendIcon size={16} />
          </Button>
        </div>
        <p className={css({ mt: '2', fontSize: 'xs', color: 'muted', textAlign: 'center' })}>
          Press Enter to send, Shift + Enter for new line
        </p>
      </form>
    </section>
  )
}
