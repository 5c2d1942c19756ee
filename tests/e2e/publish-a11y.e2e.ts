/**
 * Issue 37's accessibility in a real browser: axe-core (WCAG 2.2 AA and best practice) finds
 * nothing on the published assistant's public page (before and after an answer), its widget's
 * chat (/embed/{publicId}, before and after an answer), the host page with the widget open, and
 * the owner's pages (the assistant with its Publish panel, the inbox), in the light and the dark
 * scheme, on a desktop and a 320 px phone, none scrolling sideways. And the widget by keyboard
 * alone: Tab reaches the chat button, Enter opens the chat, Escape closes it and gives the focus
 * back to the button.
 */
import type { Server } from 'node:http'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { assistantWithDocument, hostPort, hostSite, STARTER } from './publishing.ts'
import { snap } from './screens.ts'
import { signIn, signUpAndIn, uniqueEmail } from './session.ts'

// Clear of publish.e2e.ts' host sites (hostPort(0) and (1)).
const HOST_PORT = hostPort(2)
const HOST_ORIGIN = `http://127.0.0.1:${HOST_PORT}`
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 320, height: 640 },
} as const
const SCHEMES = ['light', 'dark'] as const

// The pages' CSP allows only our own scripts; axe is injected as an inline script.
test.use({ bypassCSP: true })

let assistantId = ''
let publicId = ''
let host: Server | null = null
const ownerEmail = uniqueEmail('publish-a11y')

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(120_000)
  const page = await browser.newPage()
  await signUpAndIn(page, ownerEmail)
  assistantId = await assistantWithDocument(page)
  const patched = await page.request.patch(`/api/v1/assistants/${assistantId}`, {
    data: { published: true, allowedOrigins: [HOST_ORIGIN] },
  })
  expect(patched.status()).toBe(200)
  publicId = (await patched.json()).data.publicId as string
  await page.context().close()
  host = await hostSite(HOST_PORT, baseURL ?? '', publicId)
})

test.afterAll(() => {
  host?.close()
})

/** axe finds nothing, nothing scrolls sideways, and the screen is kept to be looked at. */
async function check(page: Page, screen: string): Promise<void> {
  await expectNoAxeViolations(page, screen)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `horizontal scroll on ${screen}`).toBeLessThanOrEqual(0)
  await snap(page, `publish-a11y-${screen}`)
}

/** A visitor of their own (no owner's session, no earlier conversation), at this size and scheme. */
async function visitor(browser: Browser, viewport: { width: number; height: number }, scheme: string) {
  const context = await browser.newContext({
    viewport,
    colorScheme: scheme as 'light' | 'dark',
    bypassCSP: true,
  })
  return context.newPage()
}

/** The visitor asks the starter question and waits for the cited answer. */
async function askStarter(page: Page): Promise<void> {
  await page.getByRole('button', { name: STARTER }).click()
  await expect(page.getByLabel('Sources').first()).toContainText('27 days of annual leave', {
    timeout: 30_000,
  })
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const scheme of SCHEMES) {
    test(`the public page, the widget's chat and the owner's pages pass axe on a ${device}, ${scheme} scheme`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000)
      const at = `${device}-${scheme}`
      const publicPage = await visitor(browser, viewport, scheme)
      await publicPage.goto(`/a/${publicId}`)
      await expect(publicPage.getByRole('button', { name: STARTER })).toBeVisible()
      await check(publicPage, `${at}-public-page`)
      await askStarter(publicPage)
      await check(publicPage, `${at}-public-page-answered`)
      await publicPage.context().close()

      const embed = await visitor(browser, viewport, scheme)
      await embed.goto(`/embed/${publicId}`)
      await expect(embed.getByRole('button', { name: STARTER })).toBeVisible()
      await check(embed, `${at}-embed`)
      await askStarter(embed)
      await check(embed, `${at}-embed-answered`)
      await embed.goto(`${HOST_ORIGIN}/`)
      await embed.getByRole('button', { name: 'Open chat' }).click()
      await expect(
        embed.frameLocator('iframe[title="Chat"]').getByRole('button', { name: 'Send' }),
      ).toBeVisible()
      await check(embed, `${at}-host-page-widget-open`)
      await embed.context().close()

      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme: scheme })
      await signIn(page, ownerEmail)
      await page.goto(`/dashboard/assistants/${assistantId}`)
      await expect(page.getByText('Where visitors find it')).toBeVisible()
      await check(page, `${at}-assistant-publish-panel`)
      await page.goto(`/dashboard/assistants/${assistantId}/conversations`)
      await expect(page.getByText(/\d liked, \d disliked/).first()).toBeVisible()
      await check(page, `${at}-inbox`)
    })
  }
}

test('the widget works by keyboard: Tab reaches the button, Enter opens the chat, Escape closes it', async ({
  browser,
}) => {
  const page = await visitor(browser, VIEWPORTS.desktop, 'light')
  await page.goto(`${HOST_ORIGIN}/`)
  const button = page.getByRole('button', { name: 'Open chat' })
  await expect(button).toBeAttached()
  await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  const chat = page.frameLocator('iframe[title="Chat"]')
  await expect(chat.getByRole('button', { name: STARTER })).toBeVisible()
  // The toggle (the one that says whether the chat is expanded) now closes it.
  await expect(page.locator('button[aria-expanded]')).toHaveAccessibleName('Close chat')
  await snap(page, 'publish-a11y-keyboard-open')
  await page.keyboard.press('Escape')
  await expect(page.locator('iframe[title="Chat"]')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Open chat' })).toBeFocused()
  await page.context().close()
})
