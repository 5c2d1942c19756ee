/**
 * A new user's walk of issue 40 at 1280, 1024, 375 and 320 px: an uploaded document, a
 * conversation about it, the library, with a screenshot of each to look at. Nothing sticks out
 * sideways (the Documents header's "Ingest Documents" at 320 px was 23 px past the edge), the tab
 * is named after the conversation, and a deleted conversation's address says so.
 */
import { expect, type Page, test } from '@playwright/test'
import { factFile } from './model.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const WIDTHS = [1280, 1024, 375, 320] as const

/** Uploads a text file into the library and waits until it is read. */
async function uploadReady(page: Page, name: string, fact: string): Promise<void> {
  const file = factFile(name, fact)
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
      'harbour-handbook.txt',
      'The harbour office keeps the spare key to the boathouse.',
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
