/**
 * What a send and a token draw again in the conversation (issue 40, "first token back where it
 * was"): the answers already on screen keep their markdown as it was drawn; only the answer being
 * written is parsed again. Markdown is replaced by a stand-in that records each text it draws.
 */
import { render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect, test, vi } from 'vitest'
import { shownMessage } from '#machines/chat/chat-model.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { AppDepsContext, createAppDeps } from '#src/lib/app-deps.ts'
import { MessageList } from '../../src/features/chat/message-list.tsx'

const drawn = vi.hoisted(() => [] as string[])
vi.mock('../../src/features/chat/markdown-answer.tsx', () => ({
  MarkdownAnswer({ text }: { text: string }) {
    drawn.push(text)
    return <p data-testid="markdown">{text}</p>
  },
}))

const TIME = '2026-03-01T10:15:00.000Z'
const item = (id: string, sender: MessageItem['sender'], content: string, more: Partial<MessageItem> = {}) =>
  shownMessage(id, sender, content, TIME, more)

const noop = () => {}
const deps = createAppDeps()
function list(messages: MessageItem[], busy: boolean): ReactNode {
  return (
    <AppDepsContext value={deps}>
      <MessageList
        messages={messages}
        awaitingReply={busy}
        ratingMessageIds={[]}
        onRate={noop}
        regenerableId={null}
        onRegenerate={noop}
        onShowSource={noop}
        busy={busy}
        switchingVersionIds={[]}
        onShowVersion={noop}
        reasonAsk={null}
        onExplainDislike={noop}
        onSkipReason={noop}
      />
    </AppDepsContext>
  )
}

test('a question sent and its answer streaming draw no earlier answer again, only the growing one', async () => {
  const before = [
    item('q1', 'user', 'What is the meal allowance?'),
    item('a1', 'bot', 'It is 45 euros a day.'),
    item('q2', 'user', 'And abroad?'),
    item('a2', 'bot', 'Abroad it is 60 euros.', { version: 2, versionCount: 2 }),
  ]
  const { rerender } = render(list(before, false))
  expect(await screen.findAllByTestId('markdown')).toHaveLength(2)
  drawn.length = 0

  // Enter: the question shows and the list is busy (the answer's version arrows wait).
  const asked = [...before, item('temp-1', 'user', 'And on Sundays?')]
  rerender(list(asked, true))
  expect(screen.getByText('And on Sundays?')).toBeTruthy()
  expect(drawn).toEqual([])

  // The answer's first tokens, then the next ones.
  rerender(list([...asked, item('temp-1:answer', 'bot', 'On', { streaming: true })], true))
  rerender(list([...asked, item('temp-1:answer', 'bot', 'On Sundays', { streaming: true })], true))
  expect(drawn).toEqual(['On', 'On Sundays'])
})
