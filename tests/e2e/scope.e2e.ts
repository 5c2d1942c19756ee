import { expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

// axe is injected as an inline script, which the pages' CSP refuses otherwise.
test.use({ bypassCSP: true })

/** A text file over the spec's 10 KB minimum that says `fact` among filler sentences. */
function textFile(fact: string): Buffer {
  let text = `${fact}\n\n`
  while (text.length < 11 * 1024) text += 'The committee reviewed the quarterly figures in detail. '
  return Buffer.from(text)
}

/** Uploads a file into the person's library through the spec's upload call (as the dialog does). */
async function upload(page: Page, conversationId: string, name: string, fact: string) {
  const response = await page.request.post(`/api/v1/chat/sessions/${conversationId}/files/upload`, {
    multipart: { file: { name, mimeType: 'text/plain', buffer: textFile(fact) } },
  })
  expect(response.status()).toBe(201)
  expect((await response.json()).data.status).toBe('ready')
}

test('# picker by keyboard, chips, a scoped answer that cites only its document, and Ask about from the table and the viewer', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await signUpAndIn(page, uniqueEmail('scope'))
  const main = page.getByRole('main')
  const created = await page.request.post('/api/v1/chat/sessions/create', { data: { title: 'Uploads' } })
  const conversationId = (await created.json()).data._id as string
  await upload(page, conversationId, 'harbour-notes.txt', 'Harbour notes: the buoy code is OSPREY-1180.')
  await upload(
    page,
    conversationId,
    'buoy-register.txt',
    'Buoy register: the buoy code is PELICAN-6620. Every buoy code is listed here; the harbour buoy code is PELICAN-6620.',
  )
  const question = 'What is the buoy code?'
  const input = page.getByPlaceholder('Type your message...')
  const header = main.getByText(/^Searching: /)

  // The whole library: the register matches better, and the answer quotes it.
  await page.reload()
  await expect(header).toHaveText('Searching: all your documents')
  await input.fill(question)
  await input.press('Enter')
  await expect(main.getByText(/PELICAN-6620/).last()).toBeVisible()
  await expect(main.getByText('buoy-register.txt').last()).toBeVisible()

  // A new chat limited, by keyboard, to the harbour notes.
  await page.getByRole('link', { name: 'New chat' }).click()
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await input.pressSequentially('#har')
  const picker = main.getByRole('listbox', { name: 'Documents to search' })
  await expect(picker.getByRole('option')).toHaveText(['harbour-notes.txt'])
  await input.press('Backspace')
  await input.press('Backspace')
  await input.press('Backspace')
  await expect(picker.getByRole('option')).toHaveText(['harbour-notes.txt', 'buoy-register.txt'])
  await expect(picker.getByRole('option', { selected: true })).toHaveText('harbour-notes.txt')
  await snap(page, '40-scope-picker')
  await expectNoAxeViolations(page, 'the # picker')
  await input.press('ArrowDown')
  await input.press('ArrowUp')
  await input.press('Enter')
  await expect(picker).toHaveCount(0)
  const chips = main.getByRole('list', { name: 'Documents this chat searches' })
  await expect(chips.getByRole('listitem')).toHaveText(['harbour-notes.txt'])
  await expect(header).toHaveText('Searching: 1 document')
  await expect(input).toHaveValue('')
  await input.fill(question)
  await input.press('Enter')
  await expect(main.getByText(/OSPREY-1180/).last()).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/c\//)
  const log = main.getByRole('log', { name: 'Conversation' })
  await expect(log.getByText('PELICAN-6620')).toHaveCount(0)
  await expect(log.getByText('buoy-register.txt')).toHaveCount(0)
  await expect(log.getByText('harbour-notes.txt').last()).toBeVisible()
  await snap(page, '41-scoped-answer')
  await log.getByRole('button', { name: /^Show the passage (\[\d+\] )?from harbour-notes\.txt/ }).click()
  const passage = main.getByRole('region', { name: /from harbour-notes\.txt$/ })
  await expect(passage.getByText('The whole document was read for this answer.')).toBeVisible()
  await expect(passage.getByRole('button', { name: 'Ask about this document' })).toBeVisible()
  await snap(page, '41b-citation-ask-about')
  await expectNoAxeViolations(page, 'a scoped conversation with its chips and a passage')

  // Reloaded, the conversation still searches its document only (kept on the server).
  await page.reload()
  await expect(header).toHaveText('Searching: 1 document')
  await expect(chips.getByRole('listitem')).toHaveText(['harbour-notes.txt'])

  // The Documents view, with no Drive connected: the library is there, the Drive part says why not.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const table = main.getByRole('table', { name: 'Documents' })
  await expect(table.getByRole('row')).toHaveCount(3)
  await expect(main.getByRole('region', { name: 'Google Drive files' }).getByRole('alert')).toHaveText(
    'Failed to load documents',
  )
  await table.getByRole('checkbox', { name: 'buoy-register.txt' }).check()
  await table.getByRole('checkbox', { name: 'harbour-notes.txt' }).check()
  await snap(page, '42-library-ask-about')
  await expectNoAxeViolations(page, 'the library with a selection, without Drive')
  await main.getByRole('button', { name: 'Ask about the selected documents (2)' }).click()
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await expect(chips.getByRole('listitem')).toHaveText(['buoy-register.txt', 'harbour-notes.txt'])
  await expect(header).toHaveText('Searching: 2 documents')

  // One document: its row's menu; then its chip goes, and the chat searches everything again.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const row = documentRow(page, 'buoy-register.txt')
  await row.getByRole('button', { name: 'More actions for buoy-register.txt' }).click()
  await snap(page, '42b-row-menu-ask-about')
  await row.getByRole('menuitem', { name: 'Ask about this document' }).click()
  await expect(chips.getByRole('listitem')).toHaveText(['buoy-register.txt'])
  await snap(page, '43-ask-about-one')

  // From the document viewer (its name in the table opens it): a new chat about that one.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await documentRow(page, 'harbour-notes.txt').getByRole('link', { name: 'harbour-notes.txt' }).click()
  await expect(main.getByRole('heading', { name: 'harbour-notes.txt' })).toBeVisible()
  await snap(page, '44-viewer-ask-about')
  await main.getByRole('button', { name: 'Ask about this document' }).click()
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await expect(chips.getByRole('listitem')).toHaveText(['harbour-notes.txt'])
  await main.getByRole('button', { name: 'Remove harbour-notes.txt' }).click()
  await expect(header).toHaveText('Searching: all your documents')
  await expect(chips).toHaveCount(0)
})
