import { expect, test } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { deleteDocument, documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { connectDrive, signUpAndIn, uniqueEmail } from './session.ts'

/** A two-page PDF over the spec's 10 KB minimum, saying `fact` on page 2. */
async function factPdf(fact: string): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage([400, 300]).drawText('Harbour survey, cover page.', { x: 20, y: 250, size: 11, font })
  doc.addPage([400, 300]).drawText(fact, { x: 20, y: 250, size: 11, font })
  doc.setSubject('survey '.repeat(2000))
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

test('the library shows each file’s outcome; an uploaded PDF is cited, once deleted never again; disconnect', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await signUpAndIn(page, uniqueEmail('library'))
  const main = page.getByRole('main')

  // Connect Drive, ingest: each file's own outcome in the library.
  await connectDrive(page)
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  const item = (name: string) => documentRow(page, name)
  await expect(item('broken-scan.pdf')).toContainText('Failed: the file is not a readable PDF', {
    timeout: 60_000,
  })
  await expect(item('locked-contract.pdf')).toContainText('Failed: the PDF is password-protected')
  await expect(item('zephyr-project-brief.pdf')).toContainText('Ready')
  await expect(item('Budget 2027')).toContainText('Ready')
  // A photo of a whiteboard: read by OCR (the e2e server runs with OCR on, its default).
  await expect(item('whiteboard.png')).toContainText(/Ready.*read by OCR/)
  await expect(main.getByText(/Reading documents/)).toHaveCount(0)
  await snap(page, '30-library-after-sync')

  // Upload a PDF in a conversation, then ask about it.
  await page.getByRole('link', { name: 'Chat with Docs' }).click()
  const input = page.getByPlaceholder('Type your message...')
  await input.fill('Hello')
  await input.press('Enter')
  await expect(main.getByText(/No language model is configured|couldn't find/).last()).toBeVisible()
  await main.getByRole('button', { name: 'Attach file' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upload File' })
  await dialog.getByLabel('File to upload').setInputFiles({
    name: 'harbour-survey.pdf',
    mimeType: 'application/pdf',
    buffer: await factPdf('The harbour survey gives the buoy code PELICAN-6620.'),
  })
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(dialog).toHaveCount(0, { timeout: 30_000 })
  await input.fill('What is the buoy code in the harbour survey?')
  await input.press('Enter')
  await expect(main.getByText(/PELICAN-6620/).last()).toBeVisible()
  await expect(
    main.getByRole('link', { name: 'View in document: harbour-survey.pdf p. 2' }).last(),
  ).toBeVisible()
  await snap(page, '31-answer-from-upload')

  // A misspelled word finds the passage too, and the answer says what it searched for (D83).
  await input.fill('Which buoy code does the harbur survey give?')
  await input.press('Enter')
  await expect(main.getByText('Searched for: harbour')).toBeVisible()
  await expect(main.getByText(/PELICAN-6620/).last()).toBeVisible()
  await snap(page, '31b-answer-searched-for-correction')

  // Delete it from the library: the same question no longer finds it.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(item('harbour-survey.pdf')).toContainText('Ready')
  await deleteDocument(page, 'harbour-survey.pdf')
  await expect(item('harbour-survey.pdf')).toHaveCount(0)
  await page.reload()
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(item('zephyr-project-brief.pdf')).toBeVisible()
  await expect(item('harbour-survey.pdf')).toHaveCount(0)
  await page.getByRole('link', { name: 'Chat with Docs' }).click()
  await input.fill('What is the buoy code PELICAN in the harbour survey?')
  await input.press('Enter')
  await expect(main.getByText(/No language model is configured|couldn't find/).last()).toBeVisible()
  await expect(main.getByRole('link', { name: 'View in document: harbour-survey.pdf p. 2' })).toHaveCount(0)
  await snap(page, '32-deleted-upload-not-cited')

  // Disconnect Drive, removing its documents: the tokens are gone, so Drive says to connect again.
  await page.getByRole('link', { name: 'Integrations', exact: true }).click()
  await main.getByRole('button', { name: 'Disconnect' }).click()
  await page
    .getByRole('dialog', { name: 'Disconnect Google Drive' })
    .getByRole('button', { name: 'Remove documents' })
    .click()
  await expect(main.getByRole('button', { name: 'Connect Now' })).toBeVisible()
  await page.reload()
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(main.getByText(/Google Drive is not connected/)).toBeVisible()
  await snap(page, '33-disconnected')
})
