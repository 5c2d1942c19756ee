/**
 * Issue 37 in a real browser: the owner publishes an assistant with one allowed site; a host page
 * on that loopback origin embeds the widget (embed.js, the chat button in a shadow root, the chat
 * in our iframe), a visitor asks its starter question, reads a cited snippet and dislikes the
 * answer; a page on another, unlisted origin gets no chat, because the browser refuses to frame
 * it (the embed page's `frame-ancestors`). With the owner's proof of work on, the public page's
 * browser solves it (workers from blob: under the page's CSP) before the first question. Then the
 * owner finds the disliked conversation in the inbox, under Unanswered. The tests run in order:
 * each uses the owner and assistant of the first.
 */
import { type Browser, expect, type Page, test } from '@playwright/test'
import { assistantWithDocument, hostPort, hostSite, STARTER } from './publishing.ts'
import { snap } from './screens.ts'
import { signIn, signUpAndIn, uniqueEmail } from './session.ts'

// Derived from E2E_PORT, so runs on other ports never meet on these.
const ALLOWED_PORT = hostPort(0)
const UNLISTED_PORT = hostPort(1)
const ALLOWED_ORIGIN = `http://127.0.0.1:${ALLOWED_PORT}`
const UNLISTED_ORIGIN = `http://127.0.0.1:${UNLISTED_PORT}`

/** The owner publishes through the Publish panel with one allowed site; the public id it made. */
async function publish(page: Page, assistantId: string): Promise<string> {
  await page.goto(`/dashboard/assistants/${assistantId}`)
  const panel = page.getByRole('form', { name: 'Publishing' })
  await panel.getByRole('checkbox', { name: 'Published' }).check()
  await panel.getByRole('button', { name: 'Add a site' }).click()
  await panel.getByLabel('Allowed site 1').fill(ALLOWED_ORIGIN)
  await panel.getByRole('checkbox', { name: 'Published' }).scrollIntoViewIfNeeded()
  await snap(page, '95a-publish-panel-allowed-site')
  await page.getByRole('button', { name: 'Save publishing' }).click()
  await expect(page.getByText('Publishing saved.')).toBeVisible()
  await expect(page.getByText('Where visitors find it')).toBeVisible()
  await page.getByText('Where visitors find it').scrollIntoViewIfNeeded()
  await snap(page, '95b-publish-panel-saved')
  const assistant = await (await page.request.get(`/api/v1/assistants/${assistantId}`)).json()
  return assistant.data.publicId as string
}

/** A visitor: a browser of their own, without the owner's session. */
async function visitorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } })
  return context.newPage()
}

test.describe.configure({ mode: 'serial' })

let assistantId = ''
let publicId = ''
const ownerEmail = uniqueEmail('publisher')

test('a host page on an allowed site embeds the chat and a visitor reads a cited answer; an unlisted site gets no chat', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  await signUpAndIn(page, ownerEmail)
  assistantId = await assistantWithDocument(page)
  publicId = await publish(page, assistantId)
  expect(publicId).toMatch(/^[\w-]{16,}$/)

  const appBase = baseURL ?? ''
  const allowed = await hostSite(ALLOWED_PORT, appBase, publicId)
  const unlisted = await hostSite(UNLISTED_PORT, appBase, publicId)
  try {
    // The allowed site: the button (in the loader's open shadow root) opens the chat in our iframe.
    const visitor = await visitorPage(browser)
    await visitor.goto(`${ALLOWED_ORIGIN}/`)
    await visitor.getByRole('button', { name: 'Open chat' }).click()
    const chat = visitor.frameLocator('iframe[title="Chat"]')
    await chat.getByRole('button', { name: STARTER }).click()
    await expect(chat.getByLabel('Sources').first()).toContainText('27 days of annual leave', {
      timeout: 30_000,
    })
    await chat.getByRole('button', { name: 'Not helpful' }).first().click()
    await expect(chat.getByRole('button', { name: 'Not helpful' }).first()).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await snap(visitor, '96-widget-answer-on-allowed-site')

    // The unlisted site: the same script, but the browser refuses to show our page in its frame.
    const stranger = await visitorPage(browser)
    const refusals: string[] = []
    stranger.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text())
    })
    await stranger.goto(`${UNLISTED_ORIGIN}/`)
    await stranger.getByRole('button', { name: 'Open chat' }).click()
    await expect(stranger.locator('iframe[title="Chat"]')).toBeAttached()
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0)
    const refused = stranger.frameLocator('iframe[title="Chat"]')
    await expect(refused.getByRole('button', { name: 'Send' })).toHaveCount(0)
    await expect(refused.getByRole('button', { name: STARTER })).toHaveCount(0)
    await snap(stranger, '97-widget-refused-on-unlisted-site')
  } finally {
    allowed.close()
    unlisted.close()
  }
})

test("with the owner's proof of work on, a visitor's browser solves it on the public page before the first question", async ({
  page,
  browser,
}) => {
  // The solver hashes up to 100,000 times: a second on a quiet machine, tens of seconds on a
  // busy two-core one running both lanes.
  test.setTimeout(150_000)
  await signIn(page, ownerEmail)
  const patched = await page.request.patch(`/api/v1/assistants/${assistantId}`, {
    data: { requireChallenge: true },
  })
  expect(patched.status()).toBe(200)

  const visitor = await visitorPage(browser)
  const refused: string[] = []
  visitor.on('console', (message) => {
    if (/Content Security Policy|Refused/.test(message.text())) refused.push(message.text())
  })
  await visitor.goto(`/a/${publicId}`)
  await expect(visitor.getByText('Please confirm you are a person before your first question.')).toBeVisible()
  // The widget's own check mark covers its checkbox: a person presses the label.
  await visitor.getByText("I'm not a robot").click()
  await expect(visitor.getByText('Please confirm you are a person before your first question.')).toBeHidden({
    timeout: 60_000,
  })
  await visitor.getByRole('button', { name: STARTER }).click()
  await expect(visitor.getByLabel('Sources').first()).toContainText('27 days of annual leave', {
    timeout: 30_000,
  })
  // The solver's workers start from blob: addresses, which the public page's CSP allows.
  expect(refused).toEqual([])
  await snap(visitor, '98-public-page-after-proof-of-work')
})

test('the owner finds the disliked visitor conversation under Unanswered', async ({ page }) => {
  await signIn(page, ownerEmail)
  await page.goto(`/dashboard/assistants/${assistantId}`)
  await page.getByRole('link', { name: 'Visitor conversations' }).click()
  await expect(page).toHaveURL(/\/conversations$/)
  // Two conversations: the widget's (disliked) and the public page's (answered, not rated).
  await expect(page.getByText(/\d liked, \d disliked/)).toHaveCount(2)
  await page.getByRole('button', { name: 'Unanswered', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Unanswered', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(page.getByText(/\d liked, \d disliked/)).toHaveCount(1)
  await expect(page.getByText(/0 liked, 1 disliked · Unanswered/)).toBeVisible()
  await expect(page.getByText(STARTER).first()).toBeVisible()
  await snap(page, '99-inbox-unanswered')
})
