import { expect, test } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const BOB = 'bob@example.com'
const FILE_NAME = 'lighthouse-log.pdf'

type EmulatorFile = { id: string; name: string }

/** The emulator's control surface (tests/fakes/google/control-routes.ts). */
async function emulator<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${process.env.E2E_GOOGLE_URL}/__emulator${path}`, { method })
  if (!response.ok) throw new Error(`emulator ${method} ${path} answered ${response.status}`)
  return (await response.json()) as T
}

const bobsUploads = async () =>
  (await emulator<{ files: EmulatorFile[] }>('GET', `/files?owner=${encodeURIComponent(BOB)}`)).files.filter(
    (f) => f.name === FILE_NAME,
  )

/** A two-page PDF over the spec's 10 KB minimum, saying `fact` on page 2. */
async function factPdf(fact: string): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage([400, 300]).drawText('Lighthouse log, cover page.', { x: 20, y: 250, size: 11, font })
  doc.addPage([400, 300]).drawText(fact, { x: 20, y: 250, size: 11, font })
  doc.setSubject('lighthouse '.repeat(1500))
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

test("'Upload to Drive' puts the file in the person's Drive and library; the next answer cites it", async ({
  page,
}) => {
  test.setTimeout(90_000)
  try {
    await signUpAndIn(page, uniqueEmail('drive-upload'))
    const main = page.getByRole('main')
    // Bob's Drive holds one small file; this test removes what it adds.
    await page.getByRole('link', { name: 'Integrations', exact: true }).click()
    const popupOpened = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Connect Now' }).click()
    const popup = await popupOpened
    await popup.getByRole('radio', { name: `Bob Builder (${BOB})` }).check()
    await popup.getByRole('button', { name: 'Allow' }).click()
    await expect(popup.getByText(/Google Drive connected/)).toBeVisible()

    await page.getByRole('link', { name: 'Chat with Docs' }).click()
    await main.getByRole('button', { name: 'Attach file' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upload File' })
    await dialog.getByLabel('File to upload').setInputFiles({
      name: FILE_NAME,
      mimeType: 'application/pdf',
      buffer: await factPdf('The lighthouse keeper signs the log with the mark GANNET-4471.'),
    })
    await dialog.getByRole('button', { name: 'Upload to Drive' }).click()
    await expect(dialog.getByRole('status')).toHaveText(
      `${FILE_NAME} is in your Google Drive and in your library.`,
      {
        timeout: 30_000,
      },
    )
    await snap(page, '50-uploaded-to-drive')
    expect((await bobsUploads()).length).toBe(1)
    await dialog.getByRole('button', { name: 'Close' }).click()

    const input = page.getByPlaceholder('Type your message...')
    await input.fill('Which mark does the lighthouse keeper sign the log with?')
    await input.press('Enter')
    await expect(main.getByText(/GANNET-4471/).last()).toBeVisible({ timeout: 30_000 })
    await expect(main.getByText(FILE_NAME).last()).toBeVisible()

    await page.getByRole('link', { name: 'Documents', exact: true }).click()
    await expect(documentRow(page, FILE_NAME)).toContainText('Ready')
  } finally {
    for (const file of await bobsUploads())
      await emulator('DELETE', `/files/${file.id}`).catch(() => undefined)
  }
})
