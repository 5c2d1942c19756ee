import { expect, test } from '@playwright/test'
import { scannedPdf } from '../fakes/scans.ts'
import { documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { connectDrive, signUpAndIn, uniqueEmail } from './session.ts'

test('a scanned PDF uploaded through the dialog is read by OCR, the answer quotes it with its page, the library says so', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await signUpAndIn(page, uniqueEmail('ocr'))
  const main = page.getByRole('main')
  // The Documents view lists the library once a Drive is connected (product §2); nothing is ingested.
  await connectDrive(page)
  await page.getByRole('link', { name: 'Chat with Docs' }).click()
  const input = page.getByPlaceholder('Type your message...')
  await input.fill('Hello')
  await input.press('Enter')
  await expect(main.getByText(/No language model is configured|couldn't find/).last()).toBeVisible()

  // A typed cover page, then a page that is only a picture of its text (no text layer).
  const scan = await scannedPdf(
    [
      ['Lighthouse maintenance contract', 'Signed copy, scanned at the harbour office.'],
      ['Payment terms', 'The deposit for the lighthouse lens is 4,250 euros.'],
    ],
    { typed: [0] },
  )
  await main.getByRole('button', { name: 'Attach file' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upload File' })
  await dialog.getByLabel('File to upload').setInputFiles({
    name: 'signed-contract.pdf',
    mimeType: 'application/pdf',
    buffer: scan,
  })
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(dialog).toHaveCount(0, { timeout: 60_000 })

  await input.fill('What is the deposit for the lighthouse lens?')
  await input.press('Enter')
  await expect(main.getByText(/4,250 euros/).last()).toBeVisible()
  await expect(
    main.getByRole('link', { name: 'View in document: signed-contract.pdf p. 2' }).last(),
  ).toBeVisible()
  await snap(page, '35-answer-from-scanned-pdf')

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const item = documentRow(page, 'signed-contract.pdf')
  await expect(item).toContainText('Ready')
  await expect(item).toContainText(/2 pages, \d+ passages, page 2 read by OCR/)
  await snap(page, '36-library-scan-read-by-ocr')
})
