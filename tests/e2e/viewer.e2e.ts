/**
 * The document viewer in a real browser (D72, D73): a cited PDF answer → "View in document" → the
 * PDF drawn by pdf.js on the cited page with the passage marked on its text layer; a text
 * document's cited passage marked and scrolled to; export as Markdown downloaded and read back;
 * a share link read in a signed-out browser, then revoked. No page breaks its CSP on the way.
 */
import { readFile } from 'node:fs/promises'
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { snap } from './screens.ts'
import { connectDrive, signUpAndIn, uniqueEmail } from './session.ts'

const FACT = 'The tide gauge at the north pier reads code KESTREL-9914.'

/** A three-page report with the fact on page 2, padded over the upload's 10 KB minimum. */
async function reportPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const pages = [
    ['Harbour survey 2026', 'Prepared for the port authority.'],
    ['Findings', 'The survey team inspected every pier in March.', FACT, 'No repairs are needed this year.'],
    ['Appendix', 'Measurements were taken at low tide.'],
  ]
  for (const lines of pages) {
    const page = doc.addPage([595, 842])
    lines.forEach((line, i) => {
      page.drawText(line, { x: 56, y: 770 - i * 24, size: i === 0 ? 18 : 12, font })
    })
  }
  doc.setSubject('survey '.repeat(2000))
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

const TIDE_QUESTION = 'What code does the tide gauge at the north pier read?'
const surveyFile = async () => ({
  name: 'harbour-survey.pdf',
  mimeType: 'application/pdf',
  buffer: await reportPdf(),
})

/** A long text file: the fact sits in the middle, many passages down. */
function longText(fact: string): Buffer {
  const filler = (topic: string) =>
    `${`The ${topic} section of the handbook goes on about routine matters in some detail. `.repeat(8)}\n\n`
  let text = ''
  for (let i = 0; i < 12; i++) text += filler(`opening ${i}`)
  text += `${fact}\n\n`
  for (let i = 0; i < 12; i++) text += filler(`closing ${i}`)
  return Buffer.from(text)
}

async function conversationWithUpload(
  request: APIRequestContext,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  const created = await request.post('/api/v1/chat/sessions/create', { data: { title: 'Harbour' } })
  expect(created.status()).toBe(201)
  const id = (await created.json()).data._id as string
  const uploaded = await request.post(`/api/v1/chat/sessions/${id}/files/upload`, { multipart: { file } })
  expect(uploaded.status()).toBe(201)
  expect((await uploaded.json()).data.status).toBe('ready')
  return id
}

/** A new person, a conversation holding `file`, open at its address with `question` answered. */
async function answeredConversation(
  page: Page,
  label: string,
  file: { name: string; mimeType: string; buffer: Buffer },
  question: string,
): Promise<void> {
  await signUpAndIn(page, uniqueEmail(label))
  const id = await conversationWithUpload(page.request, file)
  await page.goto(`/dashboard/c/${id}`)
  await ask(page, question)
}

async function ask(page: Page, question: string): Promise<void> {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
  await expect(page.getByRole('main').getByText('Sources:').last()).toBeVisible()
}

/** Fails the test on any Content Security Policy report from the page. */
function watchCsp(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

test('a cited PDF opens in the viewer on the cited page, the passage marked on the page', async ({
  page,
}) => {
  test.setTimeout(90_000)
  const csp = watchCsp(page)
  await answeredConversation(page, 'viewer-pdf', await surveyFile(), TIDE_QUESTION)

  await page.getByRole('link', { name: 'View in document: harbour-survey.pdf p. 2' }).click()

  await expect(page).toHaveURL(/\/dashboard\/documents\/[^/?]+\?passage=/)
  await expect(page.getByRole('heading', { name: 'harbour-survey.pdf', level: 1 })).toBeVisible()
  const cited = page.getByRole('region', { name: 'Page 2 of 3' }).locator('.textLayer .cited')
  await expect(cited.first()).toBeVisible()
  await expect(cited.filter({ hasText: 'KESTREL-9914' })).toHaveCount(1)
  await expect(cited.first()).toBeInViewport()
  await expect(page.getByRole('textbox', { name: 'Page' })).toHaveValue('2')
  await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    /\/api\/v1\/documents\/.+\/file$/,
  )
  await expect(page).toHaveTitle('harbour-survey.pdf · DocChat')
  await snap(page, '70-viewer-pdf-cited-page')

  // The page controls move through the document; the pages near the one in view are drawn.
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByRole('textbox', { name: 'Page' })).toHaveValue('3')
  await expect(
    page.getByRole('region', { name: 'Page 3 of 3' }).locator('.textLayer span').first(),
  ).toBeAttached()
  expect(csp).toEqual([])
})

test("a text document's cited passage is marked, scrolled to and focused", async ({ page }) => {
  test.setTimeout(90_000)
  const csp = watchCsp(page)
  const fact = 'The lighthouse keeper keeps the spare key under the blue anchor, code OSPREY-4410.'
  await answeredConversation(
    page,
    'viewer-text',
    { name: 'keeper-handbook.txt', mimeType: 'text/plain', buffer: longText(fact) },
    'Where does the lighthouse keeper keep the spare key?',
  )

  // The citation's panel has the link too.
  await page
    .getByRole('button', { name: /Show the passage (\[\d+\] )?from keeper-handbook\.txt/ })
    .first()
    .click()
  await page.getByRole('link', { name: 'View in document', exact: true }).click()

  const mark = page.locator('mark').filter({ hasText: 'OSPREY-4410' })
  await expect(mark).toBeVisible()
  await expect(mark).toBeInViewport({ ratio: 1 })
  await expect(page.locator('p:focus')).toContainText('OSPREY-4410')
  await snap(page, '71-viewer-text-cited-passage')
  expect(csp).toEqual([])
})

test('a Google Doc from the library opens as its PDF export, with a way to Google Drive', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const csp = watchCsp(page)
  await signUpAndIn(page, uniqueEmail('viewer-drive'))
  await connectDrive(page)
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  await expect(main.getByRole('status').filter({ hasText: /ingested|added|new/i })).toBeVisible({
    timeout: 60_000,
  })

  await main.getByRole('link', { name: 'Onboarding Handbook' }).click()

  await expect(page.getByRole('heading', { name: 'Onboarding Handbook', level: 1 })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Page 1 of 1' }).locator('.textLayer')).toContainText(
    'NOVA-58',
  )
  await expect(page.getByRole('link', { name: 'Open in Google Drive' })).toHaveAttribute(
    'href',
    /^https:\/\//,
  )
  await snap(page, '75-viewer-google-doc')
  // The name stays on one line beside (or above) its actions at every width, never a column of
  // letters (it was 324 px tall at 1024 px with "Open in Google Drive" shown).
  const name = page.getByRole('heading', { name: 'Onboarding Handbook', level: 1 })
  for (const width of [1280, 1024, 375, 320]) {
    await page.setViewportSize({ width, height: 800 })
    const box = await name.boundingBox()
    expect(box?.height, `the name's height at ${width} px`).toBeLessThan(40)
    expect(box?.width, `the name's width at ${width} px`).toBeGreaterThan(120)
    await snap(page, `75-viewer-google-doc-${width}`)
  }
  expect(csp).toEqual([])
})

test('export as Markdown downloads the conversation; a share link reads signed out until it is revoked', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  await answeredConversation(page, 'share', await surveyFile(), TIDE_QUESTION)
  const main = page.getByRole('main')

  await main.getByRole('button', { name: 'Export' }).click()
  const downloading = page.waitForEvent('download')
  await main.getByRole('menuitem', { name: 'Markdown (.md)' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('Harbour.md')
  const markdown = await readFile(await download.path(), 'utf8')
  expect(markdown).toContain('# Harbour')
  expect(markdown).toContain(TIDE_QUESTION)
  expect(markdown).toMatch(/\[\^1\]: harbour-survey\.pdf, page 2/)
  expect(markdown).toContain('KESTREL-9914')

  await main.getByRole('button', { name: 'Share' }).click()
  const dialog = page.getByRole('dialog', { name: 'Share this conversation' })
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const link = dialog.getByRole('textbox', { name: 'Read-only link' })
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/)
  const url = await link.inputValue()
  await snap(page, '72-share-dialog')

  const stranger = await browser.newContext()
  const reader = await stranger.newPage()
  const response = await reader.goto(url)
  expect(response?.headers()['x-robots-tag']).toContain('noindex')
  await expect(reader.getByRole('heading', { name: 'Harbour', level: 1 })).toBeVisible()
  await expect(reader.getByText(TIDE_QUESTION)).toBeVisible()
  // The answer as markdown (its quotes as quotations), and the passage it quoted under it.
  await expect(reader.locator('blockquote').filter({ hasText: 'KESTREL-9914' }).first()).toBeVisible()
  await reader.getByText('harbour-survey.pdf · p. 2').first().click()
  await expect(reader.getByRole('group').filter({ hasText: 'KESTREL-9914' }).first()).toBeVisible()
  await expect(reader.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  // Read-only: nothing to send, nothing to open a document with.
  await expect(reader.getByPlaceholder('Type your message...')).toHaveCount(0)
  await expect(reader.getByRole('link', { name: /View in document/ })).toHaveCount(0)
  await snap(reader, '73-shared-conversation-signed-out')

  await dialog.getByRole('button', { name: 'Stop sharing' }).click()
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeVisible()
  await reader.reload()
  await expect(
    reader.getByRole('heading', { name: 'This shared conversation is not available' }),
  ).toBeVisible()
  await snap(reader, '74-shared-conversation-revoked')
  await stranger.close()
})
