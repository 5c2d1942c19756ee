/**
 * An answer's citation checks on screen (issue 39, D129): each marker says its sentence's
 * outcome (✓ checked, ⚠ unverified, in its accessible name), a figure cited nowhere is marked in
 * words, and the panel highlights the items found in the passage and lists the missing ones. The
 * model judge's verdict (D140) is shown as the model's, never as a check.
 */
import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import { chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'

const MEALS = 'Travel is booked through the portal. The daily meal allowance abroad is 45 euros per person.'
const HOTEL = 'The hotel allowance is 120 euros a night.'

const checks: CitationCheck[] = [
  { marker: 1, sentence: 'Meals are 45 euros a day.', outcome: 'checked', sourceIndex: 1, missing: [] },
  {
    marker: 2,
    sentence: 'A hotel night is 120 euros.',
    outcome: 'repaired',
    sourceIndex: 2,
    movedFrom: 1,
    missing: [],
  },
  {
    marker: 2,
    sentence: 'A taxi is 300 euros.',
    outcome: 'unverified',
    sourceIndex: 2,
    missing: ['300 euros'],
  },
  { marker: null, sentence: 'Dinner costs 45 euros.', outcome: 'not-cited', sourceIndex: null, missing: [] },
]

async function openAnswer() {
  const answer = chatMessage(
    'a1',
    false,
    'Meals are 45 euros a day [1]. A hotel night is 120 euros [2]. A taxi is 300 euros [2]. Dinner costs 45 euros.',
    {
      sources: [
        source({ citation: 1, chunkId: 'c1', quote: MEALS }),
        source({ citation: 2, chunkId: 'c2', page: 4, quote: HOTEL }),
      ],
      checks,
    },
  )
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: { s1: [chatMessage('q1', true, 'What allowances are there?'), answer] },
  })
  const app = await openChat(backend)
  await app.user.click(within(screen.getByRole('region', { name: 'Recent Conversations' })).getByRole('link'))
  await within(app.main).findByRole('button', { name: 'Show passage 1, checked' })
  return app
}

test('each marker says its outcome: checked, moved and checked, or the figure not found; an uncited figure is marked', async () => {
  const { main } = await openAnswer()

  const checked = within(main).getByRole('button', { name: 'Show passage 1, checked' })
  expect(checked.textContent).toBe('[1✓]')
  expect(
    within(main).getByRole('button', { name: 'Show passage 2, checked (moved here from passage 1)' })
      .textContent,
  ).toBe('[2✓]')
  const unverified = within(main).getByRole('button', {
    name: 'Show passage 2: 300 euros not found in the passage',
  })
  expect(unverified.textContent).toBe('[2⚠]')
  expect(
    within(within(main).getByRole('list', { name: 'Not cited' })).getByRole('listitem').textContent,
  ).toBe('⚠ Not cited: “Dinner costs 45 euros.” names no source.')
})

test('the panel highlights the figures found in the passage and lists those it lacks', async () => {
  const { user, main } = await openAnswer()

  await user.click(within(main).getByRole('button', { name: 'Show passage 1, checked' }))
  const meals = within(main).getByRole('region', { name: 'Passage 1 from Quarterly report.pdf' })
  expect([...meals.querySelectorAll('[data-found]')].map((m) => m.textContent)).toEqual(['45'])
  expect(within(meals).queryByRole('note')).toBeNull()

  await user.click(
    within(main).getByRole('button', { name: 'Show passage 2: 300 euros not found in the passage' }),
  )
  const hotel = within(main).getByRole('region', { name: 'Passage 2 from Quarterly report.pdf' })
  expect(within(hotel).getByRole('note').textContent).toBe('⚠ Not found in this passage: 300 euros')
  expect([...hotel.querySelectorAll('[data-found]')].map((m) => m.textContent)).toEqual(['120'])
  expect(within(hotel).getByText('Moved here from passage 1: “A hotel night is 120 euros.”')).toBeTruthy()
})

test('an answer not checked shows its markers as before', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: {
      s1: [
        chatMessage('q1', true, 'What about meals?'),
        chatMessage('a1', false, 'Meals are 45 euros a day [1].', {
          sources: [source({ citation: 1, quote: MEALS })],
          checks: null,
        }),
      ],
    },
  })
  const { user, main } = await openChat(backend)
  await user.click(within(screen.getByRole('region', { name: 'Recent Conversations' })).getByRole('link'))

  expect((await within(main).findByRole('button', { name: 'Show passage 1' })).textContent).toBe('[1]')
  expect(within(main).queryByRole('list', { name: 'Not cited' })).toBeNull()
})

test("the model judge's verdict is shown as the model's: its own sign and words, never a check", async () => {
  const judged: CitationCheck[] = [
    {
      marker: 1,
      sentence: 'Meals are arranged locally.',
      outcome: 'nothing-to-check',
      sourceIndex: 1,
      missing: [],
      judge: 'supported',
    },
    {
      marker: 2,
      sentence: 'Hotels are free.',
      outcome: 'nothing-to-check',
      sourceIndex: 2,
      missing: [],
      judge: 'not-supported',
    },
    {
      marker: 2,
      sentence: 'A taxi is 300 euros.',
      outcome: 'unverified',
      sourceIndex: 2,
      missing: ['300 euros'],
      judge: 'supported',
    },
  ]
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: {
      s1: [
        chatMessage('q1', true, 'What allowances are there?'),
        chatMessage(
          'a1',
          false,
          'Meals are arranged locally [1]. Hotels are free [2]. A taxi is 300 euros [2].',
          {
            sources: [
              source({ citation: 1, chunkId: 'c1', quote: MEALS }),
              source({ citation: 2, chunkId: 'c2', quote: HOTEL }),
            ],
            checks: judged,
          },
        ),
      ],
    },
  })
  const { user, main } = await openChat(backend)
  await user.click(within(screen.getByRole('region', { name: 'Recent Conversations' })).getByRole('link'))

  const supported = await within(main).findByRole('button', {
    name: 'Show passage 1: the model judged it supported, not checked',
  })
  expect(supported.textContent).toBe('[1◇]')
  expect(
    within(main).getByRole('button', { name: 'Show passage 2: the model judged it not supported' })
      .textContent,
  ).toBe('[2⚠]')
  expect(
    within(main).getByRole('button', {
      name: 'Show passage 2: 300 euros not found in the passage; the model judged it supported, not checked',
    }).textContent,
  ).toBe('[2⚠]')

  await user.click(supported)
  const meals = within(main).getByRole('region', { name: 'Passage 1 from Quarterly report.pdf' })
  expect(
    within(meals).getByText(
      "The model judged this supported (not checked against the passage's words): “Meals are arranged locally.”",
    ),
  ).toBeTruthy()
  await user.click(
    within(main).getByRole('button', { name: 'Show passage 2: the model judged it not supported' }),
  )
  const hotel = within(main).getByRole('region', { name: 'Passage 2 from Quarterly report.pdf' })
  expect(
    within(hotel).getByText('The model judged this not supported by the passage: “Hotels are free.”'),
  ).toBeTruthy()
})
