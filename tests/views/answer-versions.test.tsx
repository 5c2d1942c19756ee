/**
 * Answer versions and a dislike's reason, as a person meets them (D93): Regenerate keeps the
 * earlier answer behind ‹ 1/2 ›, each version with its own sources, by mouse and keyboard; a
 * dislike asks why (optional), and Skip gives the focus back.
 */
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { MAX_ANSWER_VERSIONS } from '#contracts/chat.ts'
import { answerTo, chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'

const question = 'What does my report say about Q1?'

async function askOnce() {
  const backend = chatBackend()
  const app = await openChat(backend)
  await app.user.type(app.input(), `${question}{Enter}`)
  await within(app.main).findByText(answerTo(question))
  const answer = () => app.main.querySelector<HTMLElement>('li[data-sender="bot"]') as HTMLElement
  return { ...app, backend, answer }
}

test('Regenerate keeps the first answer: ‹ 2/2 ›, and stepping back shows it with its own source', async () => {
  const { user, main, answer, backend } = await askOnce()
  expect(within(answer()).queryByRole('group', { name: 'Answer versions' })).toBeNull()

  await user.click(within(main).getByRole('button', { name: 'Regenerate' }))
  expect(await within(main).findByText(`Version 2: ${answerTo(question)}`)).toBeTruthy()
  const versions = within(answer()).getByRole('group', { name: 'Answer versions' })
  expect(versions.textContent).toContain('2/2')
  expect(within(versions).getByText('Version 2 of 2')).toBeTruthy()
  expect(within(answer()).getByText(/Source of version 2\.pdf/)).toBeTruthy()
  const previous = within(versions).getByRole('button', { name: 'Previous version' })
  const next = within(versions).getByRole('button', { name: 'Next version' })
  expect(next.getAttribute('aria-disabled')).toBe('true')

  // By keyboard: the arrow keeps the focus while the version under it changes.
  previous.focus()
  await user.keyboard('{Enter}')
  expect(await within(main).findByText(answerTo(question))).toBeTruthy()
  expect(backend.calls.shownVersions).toEqual([{ messageId: answer().dataset.messageId, version: 1 }])
  expect(versions.textContent).toContain('1/2')
  expect(within(answer()).getByText(/Quarterly report\.pdf/)).toBeTruthy()
  expect(within(answer()).queryByText(/Source of version 2\.pdf/)).toBeNull()
  expect(document.activeElement).toBe(previous)
  expect(previous.getAttribute('aria-disabled')).toBe('true')

  // At the first version, Previous does nothing; Next goes forward again.
  await user.keyboard('{Enter}')
  expect(backend.calls.shownVersions).toHaveLength(1)
  await user.click(next)
  expect(await within(main).findByText(`Version 2: ${answerTo(question)}`)).toBeTruthy()
})

test(`at ${MAX_ANSWER_VERSIONS} versions Regenerate gives way to a note; the arrows stay`, async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: {
      s1: [
        chatMessage('q1', true, 'Hi'),
        chatMessage('a1', false, 'Ten', { version: 10, versionCount: 10, sources: [source()] }),
      ],
    },
  })
  const app = await openChat(backend)
  await app.goTo('Conversation History')
  await app.user.click(within(app.main).getByRole('button', { name: /Conversation s1/ }))
  expect(await within(app.main).findByText('10 versions, the most an answer keeps')).toBeTruthy()
  expect(within(app.main).queryByRole('button', { name: 'Regenerate' })).toBeNull()
  expect(within(app.main).getByRole('group', { name: 'Answer versions' }).textContent).toContain('10/10')
})

test('a dislike asks why (optional): a reason and a note are sent, and thanked', async () => {
  const { user, main, backend, answer } = await askOnce()
  await user.click(within(main).getByRole('button', { name: 'Dislike' }))

  const form = await within(main).findByRole('form', { name: 'Why this answer did not help' })
  expect(within(main).getByRole('button', { name: 'Dislike' }).getAttribute('aria-pressed')).toBe('true')
  const send = within(form).getByRole('button', { name: 'Send' }) as HTMLButtonElement
  expect(send.disabled).toBe(true)
  expect(within(form).getByRole('group', { name: 'What went wrong? (optional)' })).toBeTruthy()

  await user.click(within(form).getByRole('radio', { name: 'Not correct' }))
  await user.type(
    within(form).getByRole('textbox', { name: 'Tell us more (optional)' }),
    '  Wrong quarter.  ',
  )
  expect(within(form).getByText('18/500 characters')).toBeTruthy()
  await user.click(send)

  expect(await within(answer()).findByText('Thanks for telling us.')).toBeTruthy()
  expect(backend.calls.reasons).toEqual([
    { messageId: answer().dataset.messageId, reason: 'incorrect', note: 'Wrong quarter.' },
  ])
  // The spec's feedback call went as before, once.
  expect(backend.calls.feedback).toEqual([{ messageId: answer().dataset.messageId, feedback: 'dislike' }])
})

test('Skip (or Escape) closes the question without sending, and the focus goes back to Dislike', async () => {
  const { user, main, backend } = await askOnce()
  const dislike = within(main).getByRole('button', { name: 'Dislike' })
  await user.click(dislike)
  const form = await within(main).findByRole('form', { name: 'Why this answer did not help' })
  await user.click(within(form).getByRole('button', { name: 'Skip' }))

  await waitFor(() => expect(screen.queryByRole('form', { name: 'Why this answer did not help' })).toBeNull())
  expect(document.activeElement).toBe(dislike)
  expect(backend.calls.reasons).toEqual([])

  // Like, then Dislike again: asked again; Escape closes it.
  await user.click(within(main).getByRole('button', { name: 'Like' }))
  await waitFor(() =>
    expect(within(main).getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('true'),
  )
  await user.click(dislike)
  const again = await within(main).findByRole('form', { name: 'Why this answer did not help' })
  within(again).getByRole('radio', { name: 'Incomplete' }).focus()
  await user.keyboard('{Escape}')
  await waitFor(() => expect(screen.queryByRole('form', { name: 'Why this answer did not help' })).toBeNull())
  expect(document.activeElement).toBe(dislike)
  expect(backend.calls.reasons).toEqual([])
})
