/**
 * A new user's walk of issue 40 at 1280, 1024, 375 and 320 px: an uploaded document, a
 * conversation about it, the library, with a screenshot of each to look at. Nothing sticks out
 * sideways (the Documents header's "Ingest Documents" at 320 px was 23 px past the edge), the tab
 * is named after the conversation, and a deleted conversation's address says so.
 */
import { expect, type Page, test } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { factFile } from './model.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const WIDTHS = [1280, 1024, 375, 320] as const

/** A one-page PDF over the 10 KB minimum, in 12-point text. */
async function onePagePdf(): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const sheet = doc.addPage([595, 842])
  sheet.drawText('Harbour tides and mooring hours', { x: 56, y: 770, size: 18, font })
  sheet.drawText('The harbour office keeps the spare key to the boathouse.', {
    x: 56,
    y: 740,
    size: 12,
    font,
  })
  doc.setSubject('harbour '.repeat(2000))
  return {
    name: 'harbour-tides.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await doc.save({ useObjectStreams: false })),
  }
}

/** Uploads a file into the library, waits until it is read, and answers its library id. */
async function uploadReady(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  const upload = await page.request.post('/api/v1/documents/upload', { multipart: { file } })
  expect(upload.status(), await upload.text()).toBe(201)
  const documentId = (await upload.json()).data.id as string
  await expect
    .poll(
      async () => {
        const library = await (await page.request.get('/api/v1/documents')).json()
        return library.data.documents.find((d: { id: string }) => d.id === documentId)?.status
      },
      { timeout: 60_000 },
    )
    .toBe('ready')
  return documentId
}

/** Nothing on the page reaches past the window's right edge (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

async function openSection(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' })
  if (await menu.isVisible()) await menu.click()
  await page.getByRole('link', { name, exact: true }).click()
}

for (const width of WIDTHS) {
  test(`a conversation and the library at ${width} px`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width, height: width < 800 ? 740 : 800 })
    await signUpAndIn(page, uniqueEmail(`walk-${width}`))
    await uploadReady(
      page,
      factFile('harbour-handbook.txt', 'The harbour office keeps the spare key to the boathouse.'),
    )

    const input = page.getByPlaceholder('Type your message...')
    await input.fill('Who keeps the spare key to the boathouse?')
    await input.press('Enter')
    const main = page.getByRole('main')
    await expect(main.getByText(/No language model is configured/)).toBeVisible({ timeout: 30_000 })
    await expect(page).toHaveURL(/\/dashboard\/c\//)
    const conversation = page.url()
    await expect(page).toHaveTitle(/^Who keeps the spare key.* · DocChat$/)
    await expectNoSidewaysScroll(page)
    await snap(page, `40-conversation-${width}`)

    await openSection(page, 'Documents')
    const ingest = main.getByRole('button', { name: 'Ingest Documents' })
    await expect(ingest).toBeVisible()
    await expect(main.getByRole('table', { name: 'Documents' })).toBeVisible()
    const box = await ingest.boundingBox()
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width)
    await expectNoSidewaysScroll(page)
    await snap(page, `40-library-${width}`)

    // The conversation deleted, its address says it does not exist and offers a new chat.
    const id = new URL(conversation).pathname.split('/').pop()
    expect((await page.request.delete(`/api/v1/chat/sessions/${id}/delete`)).ok()).toBe(true)
    await page.goto(conversation)
    await expect(main.getByText('This conversation does not exist or was deleted.')).toBeVisible()
    await expect(main.getByRole('link', { name: 'Start a new chat' })).toBeVisible()
    await snap(page, `40-missing-conversation-${width}`)
  })
}

test('on a phone a PDF in the viewer zooms in with +, and the wider page scrolls sideways', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 375, height: 740 })
  await signUpAndIn(page, uniqueEmail('walk-zoom'))
  const id = await uploadReady(page, await onePagePdf())
  await page.goto(`/dashboard/documents/${id}`)
  const pages = page.getByRole('region', { name: 'Document pages' })
  const sheet = pages.getByRole('region', { name: 'Page 1 of 1' })
  await expect(sheet).toBeVisible()
  const fitted = (await sheet.boundingBox())?.width ?? 0
  await expect(page.getByText('100 %')).toBeVisible()

  await page.getByRole('button', { name: 'Zoom in' }).click()
  await page.getByRole('button', { name: 'Zoom in' }).click()
  await expect(page.getByText('150 %')).toBeVisible()
  await expect.poll(async () => (await sheet.boundingBox())?.width ?? 0).toBeGreaterThan(fitted * 1.4)
  expect(await pages.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await expectNoSidewaysScroll(page)
  await snap(page, '40-viewer-zoomed-375')
})
