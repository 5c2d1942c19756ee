import { expect, type Page, test } from '@playwright/test'
import { deleteDocument, documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const CAROL = 'carol@example.com'

/** The emulator's control surface (tests/fakes/google/control-routes.ts). */
async function emulator(method: string, path: string, body?: unknown): Promise<{ id?: string }> {
  const response = await fetch(`${process.env.E2E_GOOGLE_URL}/__emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!response.ok) throw new Error(`emulator ${method} ${path} answered ${response.status}`)
  return (await response.json()) as { id?: string }
}

async function ingest(page: Page): Promise<void> {
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  await expect(main.getByRole('status').filter({ hasText: /^Ingested/ })).toBeVisible({ timeout: 60_000 })
}

test('a UTF-16 Drive file is answerable; an edit and a deletion in Drive reach the library on the next sync; a removed file is added back', async ({
  page,
}) => {
  test.setTimeout(120_000)
  // Carol's Drive starts empty: this test's files are its own, and it removes them when done.
  const notepad = await emulator('POST', '/files', {
    owner: CAROL,
    name: 'windows-notes.txt',
    mimeType: 'text/plain',
    contentBase64: Buffer.from(
      '\uFEFFWindows notes: the vault code is QUOKKA-5521.\r\n\u0000',
      'utf16le',
    ).toString('base64'),
  })
  const tides = await emulator('POST', '/files', {
    owner: CAROL,
    name: 'tide-table.txt',
    mimeType: 'text/plain',
    content: 'Tide table: high water at the north pier is at 06:40.\n',
  })
  try {
    await signUpAndIn(page, uniqueEmail('drive-sync'))
    const main = page.getByRole('main')
    await page.getByRole('link', { name: 'Integrations', exact: true }).click()
    const popupOpened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Connect Now' }).click()
    const popup = await popupOpened
    await popup.getByRole('radio', { name: `Carol Empty (${CAROL})` }).check()
    await popup.getByRole('button', { name: 'Allow' }).click()
    await expect(popup.getByText(/Google Drive connected/)).toBeVisible()

    // First sync: both read, the UTF-16 one included.
    await page.getByRole('link', { name: 'Documents', exact: true }).click()
    await ingest(page)
    const item = (name: string) => documentRow(page, name)
    await expect(item('windows-notes.txt')).toContainText('Ready')
    await expect(item('tide-table.txt')).toContainText('Ready')

    await page.getByRole('link', { name: 'Chat with Docs' }).click()
    const input = page.getByPlaceholder('Type your message...')
    await input.fill('What is the vault code in the Windows notes?')
    await input.press('Enter')
    await expect(main.getByText(/QUOKKA-5521/).last()).toBeVisible()
    await expect(main.getByText('windows-notes.txt').last()).toBeVisible()
    await snap(page, '40-answer-from-utf16-file')

    // Edit one file and delete the other in Drive, then sync again.
    await emulator('PATCH', `/files/${tides.id}`, {
      content: 'Tide table: high water at the north pier moved to 07:15.\n',
    })
    await emulator('DELETE', `/files/${notepad.id}`)
    await page.getByRole('link', { name: 'Documents', exact: true }).click()
    await ingest(page)
    await expect(main.getByRole('status').filter({ hasText: /^Ingested/ })).toContainText('1 updated')
    await expect(main.getByRole('status').filter({ hasText: /^Ingested/ })).toContainText('1 removed')
    await expect(item('windows-notes.txt')).toHaveCount(0)
    await expect(item('tide-table.txt')).toContainText('Ready')
    await snap(page, '41-library-after-incremental-sync')

    // Remove the tide table from the library, then add it back.
    await deleteDocument(page, 'tide-table.txt')
    await expect(item('tide-table.txt')).toHaveCount(0)
    await main.getByText('Removed from the library (1)').click()
    await main
      .getByRole('list', { name: 'Removed documents' })
      .getByRole('button', { name: 'Add back' })
      .click()
    await expect(item('tide-table.txt')).toContainText('Ready', { timeout: 30_000 })
    await expect(main.getByText(/Removed from the library/)).toHaveCount(0)
    await snap(page, '42-library-added-back')
  } finally {
    for (const file of [notepad, tides]) await emulator('DELETE', `/files/${file.id}`).catch(() => undefined)
  }
})
