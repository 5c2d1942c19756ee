import { expect, test } from '@playwright/test'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

test('connect Drive in the popup, list, ingest, and get an answer from a document', async ({ page }) => {
  test.setTimeout(90_000)
  await signUpAndIn(page, uniqueEmail('drive'))

  await page.getByRole('link', { name: 'Integrations', exact: true }).click()
  await expect(page.getByText('Apps & Integrations')).toBeVisible()
  const popupOpened = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Connect Now' }).click()
  const popup = await popupOpened
  // The emulator's consent page, as Google's would be: approve for the first account.
  await popup.getByRole('button', { name: 'Allow' }).click()
  await expect(popup.getByText(/Google Drive connected/)).toBeVisible()
  await snap(popup, '20-drive-connected-popup')
  await expect(page.getByRole('button', { name: 'Connected' })).toBeDisabled()
  await snap(page, '21-integrations-connected')

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const main = page.getByRole('main')
  await expect(main.getByText('notes.txt')).toBeVisible()
  await expect(main.getByText('zephyr-project-brief.pdf')).toBeVisible()
  await snap(page, '22-documents')

  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  // The library's progress line is a status too while files are still read: find the ingest's own.
  await expect(main.getByRole('status').filter({ hasText: /ingested|added|new/i })).toBeVisible({
    timeout: 60_000,
  })
  await snap(page, '23-ingested')

  await page.getByRole('link', { name: 'Chat with Docs' }).click()
  const input = page.getByPlaceholder('Type your message...')
  await input.fill('What is the Zephyr project launch code?')
  await input.press('Enter')
  await expect(main.getByText(/AURORA-7731/).last()).toBeVisible()
  // The source names the document (its Drive link) and the cited page (issue 40, item 4).
  await expect(main.getByRole('link', { name: 'zephyr-project-brief.pdf', exact: true }).last()).toBeVisible()
  await expect(
    main.getByRole('link', { name: 'View in document: zephyr-project-brief.pdf p. 2' }).last(),
  ).toBeVisible()
  // Without a model the answer quotes the passages, rendered as quotations (not raw '>' lines).
  await expect(main.locator('blockquote').filter({ hasText: 'AURORA-7731' })).toBeVisible()
  await snap(page, '24-answer-from-drive')
})
