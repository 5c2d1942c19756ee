/**
 * Conversations limited to chosen documents, as a person meets them (D70): the composer's `#`
 * picker (keyboard and mouse), the chips above the composer, the header's "Searching: …" line with
 * Choose documents / Search all documents, and "Ask about this document" from a citation and from
 * the Documents view (alone or several selected).
 */
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { libraryDocument } from '#machines/documents/documents-fixtures.ts'
import { chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'
import { filesResponse, listFiles } from './drive-handlers.ts'
import { ok, server } from './msw-server.ts'

const REPORT = '0b5c7a52-6c2f-4f4e-9a51-000000000001'
const MINUTES = '0b5c7a52-6c2f-4f4e-9a51-000000000002'
const PLAN = '0b5c7a52-6c2f-4f4e-9a51-000000000003'
const beingRead = libraryDocument('Reading plan.pdf', {
  id: PLAN,
  status: 'processing',
  pages: null,
  chunks: null,
})
const documents = [
  libraryDocument('Quarterly report.pdf', { id: REPORT }),
  libraryDocument('Board minutes.pdf', { id: MINUTES }),
  beingRead,
]

const header = (main: HTMLElement) => within(main).getByText(/^Searching: /)
const chips = (main: HTMLElement) =>
  within(within(main).getByRole('list', { name: 'Documents this chat searches' }))
    .getAllByRole('listitem')
    .map((chip) => chip.textContent)

test('typing # lists my ready documents; the arrow keys and Enter make one a chip, and the first message creates the conversation with it', async () => {
  const backend = chatBackend({ documents })
  const { user, main, input } = await openChat(backend)
  expect(header(main).textContent).toBe('Searching: all your documents')

  await user.type(input(), 'Compare #')

  const listbox = await within(main).findByRole('listbox', { name: 'Documents to search' })
  // Ready documents only: the one still being read is not offered.
  expect(
    within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Quarterly report.pdf', 'Board minutes.pdf'])
  await user.type(input(), 'r')
  await user.keyboard('{ArrowDown}')
  const highlighted = within(listbox).getByRole('option', { selected: true })
  expect(highlighted.textContent).toBe('Board minutes.pdf')
  expect(input().getAttribute('aria-activedescendant')).toBe(highlighted.id)
  await user.keyboard('{Enter}')

  expect(within(main).queryByRole('listbox')).toBeNull()
  expect(chips(main)).toEqual(['Board minutes.pdf'])
  expect(input().value).toBe('Compare ')
  expect(header(main).textContent).toBe('Searching: 1 document')

  await user.type(input(), 'the minutes{Enter}')
  await within(main).findByRole('heading', { name: 'Compare the minutes' })
  expect(backend.calls.scopes).toEqual([[MINUTES]])
  expect(header(main).textContent).toBe('Searching: 1 document')
  expect(chips(main)).toEqual(['Board minutes.pdf'])
})

test('a document already chosen is not offered again; Escape closes the picker and Enter then sends', async () => {
  const backend = chatBackend({ documents })
  const { user, main, input } = await openChat(backend)
  await user.type(input(), '#quart')
  await user.click(await within(main).findByRole('option', { name: 'Quarterly report.pdf' }))
  expect(chips(main)).toEqual(['Quarterly report.pdf'])

  await user.type(input(), '#')
  const listbox = await within(main).findByRole('listbox')
  expect(
    within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Board minutes.pdf'])
  await user.keyboard('{Escape}')
  expect(within(main).queryByRole('listbox')).toBeNull()

  await user.type(input(), 'hashtag{Enter}')
  await waitFor(() => expect(backend.calls.created).toEqual(['#hashtag']))
  expect(backend.calls.scopes).toEqual([[REPORT]])
})

test('with no ready document the picker says how to add one', async () => {
  const { user, main, input } = await openChat(chatBackend({ documents: [beingRead] }))

  await user.type(input(), '#')

  expect(
    await within(main).findByText(
      'No document is ready to search yet. Add one under Documents, or with the paperclip.',
    ),
  ).toBeTruthy()
  await user.type(input(), 'x')
  expect(within(main).getByText('No ready document matches “x”.')).toBeTruthy()
})

test("an open conversation's header says what it searches; a chip's × and Search all documents change it on the server", async () => {
  const scoped = chatConversation('s1', {
    scope: {
      documentIds: [REPORT, MINUTES],
      documents: [
        { id: REPORT, name: 'Quarterly report.pdf' },
        { id: MINUTES, name: 'Board minutes.pdf' },
      ],
    },
  })
  const backend = chatBackend({ conversations: [scoped], messages: { s1: [] }, documents })
  const { user, main } = await openChat(backend, '/dashboard/c/s1')
  await waitFor(() => expect(header(main).textContent).toBe('Searching: 2 documents'))

  await user.click(within(main).getByRole('button', { name: 'Remove Quarterly report.pdf' }))
  await waitFor(() => expect(chips(main)).toEqual(['Board minutes.pdf']))
  expect(header(main).textContent).toBe('Searching: 1 document')

  await user.click(within(main).getByRole('button', { name: 'Search all documents' }))
  await waitFor(() => expect(header(main).textContent).toBe('Searching: all your documents'))
  expect(within(main).queryByRole('list', { name: 'Documents this chat searches' })).toBeNull()
  expect(backend.calls.scopes).toEqual([[MINUTES], null])

  // Choose documents opens the same picker, in the composer; choosing saves at once.
  await user.click(within(main).getByRole('button', { name: 'Choose documents' }))
  await user.click(await within(main).findByRole('option', { name: 'Quarterly report.pdf' }))
  await waitFor(() => expect(header(main).textContent).toBe('Searching: 1 document'))
  expect(backend.calls.scopes).toEqual([[MINUTES], null, [REPORT]])
})

test('a conversation whose chosen documents were all deleted says so and offers the whole library', async () => {
  const emptied = chatConversation('s1', { scope: { documentIds: [], documents: [] } })
  const { main } = await openChat(
    chatBackend({ conversations: [emptied], messages: { s1: [] } }),
    '/dashboard/c/s1',
  )

  await waitFor(() =>
    expect(header(main).textContent).toBe(
      'Searching: no documents (the ones chosen for this conversation were deleted)',
    ),
  )
  expect(within(main).getByRole('button', { name: 'Search all documents' })).toBeTruthy()
})

test("Ask about this document, in a citation's passage, starts a new chat about that document", async () => {
  const answered = chatConversation('s1')
  const passage = source({ documentId: REPORT, documentName: 'Quarterly report.pdf', quote: 'Q1 grew 4 %.' })
  const backend = chatBackend({
    conversations: [answered],
    messages: {
      s1: [
        chatMessage('m1', true, 'How did Q1 go?'),
        chatMessage('m2', false, 'It grew.', { sources: [{ ...passage, citation: 1 }] }),
      ],
    },
    documents,
  })
  const { user, main, currentPath } = await openChat(backend, '/dashboard/c/s1')

  await user.click(
    await within(main).findByRole('button', { name: 'Show the passage [1] from Quarterly report.pdf p. 3' }),
  )
  await user.click(within(main).getByRole('button', { name: 'Ask about this document' }))

  await waitFor(() => expect(currentPath()).toBe('/dashboard/chat'))
  expect(header(main).textContent).toBe('Searching: 1 document')
  expect(chips(main)).toEqual(['Quarterly report.pdf'])
  expect(within(main).getByText('Start a conversation')).toBeTruthy()
})

test("in the Documents view, a row's Ask about this document, or several selected, opens a chat about them", async () => {
  server.use(listFiles(() => filesResponse([])).handler)
  const backend = chatBackend({ documents })
  const { user, main, currentPath } = await openChat(backend, '/dashboard/docs')
  const row = (name: string) => within(main).getByRole('row', { name: new RegExp(`^${name}`) })
  await within(main).findByRole('table', { name: 'Documents' })
  // A document still being read can be neither selected nor asked about (its menu offers Delete only).
  await waitFor(() => expect(row('Reading plan.pdf')).toBeTruthy())
  expect(within(row('Reading plan.pdf')).queryByRole('checkbox')).toBeNull()
  await user.click(within(main).getByRole('button', { name: 'More actions for Reading plan.pdf' }))
  const menu = within(main).getByRole('menu', { name: 'Actions for Reading plan.pdf' })
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((b) => b.textContent),
  ).toEqual(['Delete'])
  await user.keyboard('{Escape}')

  await user.click(within(main).getByRole('checkbox', { name: 'Board minutes.pdf' }))
  await user.click(within(main).getByRole('checkbox', { name: 'Quarterly report.pdf' }))
  await user.click(within(main).getByRole('button', { name: 'Ask about the selected documents (2)' }))

  await waitFor(() => expect(currentPath()).toBe('/dashboard/chat'))
  expect(chips(main)).toEqual(['Board minutes.pdf', 'Quarterly report.pdf'])

  await user.click(
    within(screen.getByRole('navigation', { name: 'Dashboard sections' })).getByRole('link', {
      name: 'Documents',
    }),
  )
  // The selection was asked about: it is done with.
  expect(
    (await within(main).findByRole('checkbox', { name: 'Quarterly report.pdf' })).matches(':checked'),
  ).toBe(false)
  expect(within(main).queryByRole('toolbar', { name: 'Selected documents' })).toBeNull()
  await user.click(
    within(row('Quarterly report.pdf')).getByRole('button', {
      name: 'More actions for Quarterly report.pdf',
    }),
  )
  await user.click(within(main).getByRole('menuitem', { name: 'Ask about this document' }))
  await waitFor(() => expect(currentPath()).toBe('/dashboard/chat'))
  expect(chips(main)).toEqual(['Quarterly report.pdf'])
})

test('in the document viewer, Ask about this document opens a chat about it', async () => {
  const report = libraryDocument('Quarterly report.txt', { id: REPORT, mimeType: 'text/plain' })
  server.use(
    listFiles(() => filesResponse([])).handler,
    ok(documentEndpoints.getDocument, {
      success: true,
      data: { document: report, passages: [{ id: 'p1', page: null, heading: null, text: 'Q1 grew 4 %.' }] },
    }),
  )
  const backend = chatBackend({ documents: [report] })
  const { user, main, currentPath } = await openChat(backend, `/dashboard/documents/${REPORT}`)

  await within(main).findByText('Q1 grew 4 %.')
  await user.click(within(main).getByRole('button', { name: 'Ask about this document' }))

  await waitFor(() => expect(currentPath()).toBe('/dashboard/chat'))
  expect(chips(main)).toEqual(['Quarterly report.txt'])
  expect(header(main).textContent).toBe('Searching: 1 document')
})

test('a new chat limited to one document names it, not the whole library, and offers no starter questions about others', async () => {
  server.use(
    ok(documentEndpoints.firstRun, {
      success: true,
      data: { ready: 29, questions: ['What does plan.md say about “Goals”?'] },
    }),
  )
  const { user, main, input } = await openChat(chatBackend({ documents }))
  expect(await within(main).findByText('29 documents are ready to ask about.')).toBeTruthy()

  await user.type(input(), '#Quarterly')
  await user.keyboard('{Enter}')

  expect(await within(main).findByText('Ask about Quarterly report.pdf.')).toBeTruthy()
  expect(within(main).queryByText(/documents are ready/)).toBeNull()
  expect(within(main).queryByRole('list', { name: 'Starter questions' })).toBeNull()
})
