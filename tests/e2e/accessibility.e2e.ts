/**
 * WCAG 2.2 AA in a real browser: axe-core (its script injected into the page) on every screen, in
 * the light and the dark scheme, on a desktop and a 320 px phone; plus the layout rules axe cannot
 * see (no sideways scrolling, Logout and Send never cut off) and reduced motion.
 */
import { expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

/** A one-page PDF over the upload's 10 KB minimum. */
async function onePagePdf(): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib')
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc
    .addPage([595, 842])
    .drawText('The pier survey found nothing to repair.', { x: 56, y: 770, size: 12, font })
  doc.setSubject('survey '.repeat(2000))
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

// The pages' CSP allows only our own scripts; axe is injected as an inline script.
test.use({ bypassCSP: true })

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  // 320 CSS px is also what a 1280 px window shows at 400 % zoom (WCAG 1.4.10 reflow).
  phone: { width: 320, height: 640 },
} as const
const SCHEMES = ['light', 'dark'] as const

/** WCAG 1.4.10: nothing scrolls sideways, and the named controls sit wholly inside the window. */
async function expectReflow(page: Page, screen: string, controls: string[]): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `horizontal scroll on ${screen}`).toBeLessThanOrEqual(0)
  const width = page.viewportSize()?.width ?? 0
  for (const name of controls) {
    const box = await page.getByRole('button', { name, exact: true }).boundingBox()
    expect(box, `${name} on ${screen}`).not.toBeNull()
    expect(box?.x ?? -1, `${name} on ${screen}`).toBeGreaterThanOrEqual(0)
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width)
  }
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of SCHEMES) {
    test(`every screen passes axe on a ${device}, ${colorScheme} scheme`, async ({ page }) => {
      // Every screen, each checked by axe and for reflow: about a minute; the first test of a fresh
      // server also pays for its cold start.
      test.setTimeout(150_000)
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme })
      const check = async (screen: string, controls: string[] = []) => {
        await expectNoAxeViolations(page, screen)
        await expectReflow(page, screen, controls)
        await snap(page, `a11y-${device}-${colorScheme}-${screen}`)
      }

      await page.goto('/login')
      await expect(page.getByRole('heading', { name: 'Welcome Back', level: 1 })).toBeVisible()
      await expect(page).toHaveTitle('Welcome Back · DocChat')
      await check('login')
      await page.getByRole('button', { name: 'Sign In' }).click()
      await expect(page.getByText('Email is required')).toBeVisible()
      await expect(page.getByLabel('Email')).toBeFocused()
      await check('login-errors')

      await page.goto('/register')
      await expect(page).toHaveTitle('Create Account · DocChat')
      await check('register')
      await page.getByLabel('Email').fill('ada@example.com')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page.getByLabel('Password', { exact: true })).toBeFocused()
      await check('register-errors')
      const newcomer = uniqueEmail(`a11y-new-${device}-${colorScheme}`)
      await page.getByLabel('Email').fill(newcomer)
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery')
      await page.getByLabel('Confirm Password').fill('correct horse battery')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page.getByRole('status')).toHaveText('Account created. Sign in with your new password.')
      await expect(page.getByLabel('Email')).toHaveValue(newcomer)
      await check('login-after-sign-up')

      await signUpAndIn(page, uniqueEmail(`a11y-${device}-${colorScheme}`))
      // The session check held open: the 'Loading...' screen stays up long enough to inspect.
      let releaseMe = () => {}
      const meHeld = new Promise<void>((resolve) => {
        releaseMe = resolve
      })
      await page.route('**/api/v1/auth/me', async (route) => {
        await meHeld
        await route.fallback()
      })
      await page.goto('/dashboard')
      await expect(page.getByRole('heading', { name: 'Loading...', level: 1 })).toBeVisible()
      await check('loading')
      releaseMe()

      const main = page.getByRole('main')
      await expect(page.getByRole('heading', { name: 'Chat with Docs', level: 1 })).toBeAttached()
      await expect(page).toHaveTitle('Chat with Docs · DocChat')
      await check('chat-empty', ['Logout', 'Send message'])
      const input = page.getByPlaceholder('Type your message...')
      await input.fill('What can you do for me?')
      await input.press('Enter')
      await expect(main.getByText(/No language model is configured/)).toBeVisible()
      await check('chat-reply', ['Logout', 'Send message'])
      await main.getByRole('button', { name: 'Attach file' }).click()
      await expect(page.getByRole('dialog', { name: 'Upload File' })).toBeVisible()
      await check('upload-dialog')
      await page.keyboard.press('Escape')
      await expect(page.getByRole('dialog')).toBeHidden()

      const sections = [
        ['Documents', 'docs'],
        ['Integrations', 'integrations'],
        ['Conversation History', 'history'],
        ['Settings', 'settings'],
      ] as const
      for (const [label, screen] of sections) {
        // On a phone the sections are in the menu drawer, which a followed link closes.
        const menu = page.getByRole('button', { name: 'Menu' })
        if (device === 'phone') await menu.click()
        await page.getByRole('navigation').getByRole('link', { name: label }).click()
        await expect(page).toHaveTitle(`${label} · DocChat`)
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
        if (device === 'phone') {
          await expect(menu).toHaveAttribute('aria-expanded', 'false')
          // The drawer, open, with the section's extras, is checked too.
          await menu.click()
          await expect(menu).toHaveAttribute('aria-expanded', 'true')
        }
        await check(screen, ['Logout'])
        if (device === 'phone') await page.keyboard.press('Escape')
      }

      // The document viewer (a text document and a PDF), the Share dialog and a shared page (D72, D73).
      const conversation = await page.request.post('/api/v1/chat/sessions/create', {
        data: { title: 'Notes' },
      })
      const conversationId = (await conversation.json()).data._id as string
      const upload = (name: string, mimeType: string, buffer: Buffer) =>
        page.request
          .post(`/api/v1/chat/sessions/${conversationId}/files/upload`, {
            multipart: { file: { name, mimeType, buffer } },
          })
          .then(async (response) => (await response.json()).data.id as string)
      const textId = await upload(
        'notes.txt',
        'text/plain',
        Buffer.from('The harbour code is OSPREY-4410.\n\n'.repeat(400)),
      )
      await page.goto(`/dashboard/documents/${textId}`)
      await expect(page.getByRole('heading', { name: 'notes.txt', level: 1 })).toBeVisible()
      await check('viewer-text', ['Logout'])
      const pdfId = await upload('survey.pdf', 'application/pdf', await onePagePdf())
      await page.goto(`/dashboard/documents/${pdfId}`)
      await expect(
        page.getByRole('region', { name: 'Page 1 of 1' }).locator('.textLayer span').first(),
      ).toBeAttached()
      await check('viewer-pdf', ['Logout'])
      await page.request.post(`/api/v1/chat/sessions/${conversationId}/messages/send`, {
        data: { content: 'What is the harbour code?', isUser: true, messageType: 'text' },
      })
      await page.goto(`/dashboard/c/${conversationId}`)
      // On a phone Share sits in the conversation's options menu (D136).
      if (viewport.width < 768) {
        await main.getByRole('button', { name: 'Conversation options' }).click()
        await page.getByRole('menuitem', { name: 'Share' }).click()
      } else await main.getByRole('button', { name: 'Share' }).click()
      await page.getByRole('button', { name: 'Create link' }).click()
      const link = page.getByRole('textbox', { name: 'Read-only link' })
      await expect(link).toHaveValue(/\/s\//)
      await check('share-dialog')
      await page.goto(await link.inputValue())
      await expect(page.getByRole('heading', { name: 'Notes', level: 1 })).toBeVisible()
      await expect(page.locator('blockquote').first()).toBeVisible()
      await check('shared-conversation')
    })
  }
}

test('the skip link comes before the header and the sidebar and lands in the conversation', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('a11y-skip'))
  // The header's first control; one step back is the only thing before it.
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).focus()

  await page.keyboard.press('Shift+Tab')
  const skip = page.getByRole('link', { name: 'Skip to conversation' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')

  await expect(page.getByRole('main')).toBeFocused()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('text inputs show a focus ring, the dark scheme is dark, reduced motion stops transitions', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' })
  await page.goto('/login')
  const email = page.getByLabel('Email')
  await email.focus()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')

  await expect(email).toBeFocused()
  const ring = await email.evaluate((el) => getComputedStyle(el).boxShadow)
  expect(ring).toMatch(/3px/)
  expect(ring).not.toBe('none')
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).toBe('rgb(14, 18, 32)')
  const signIn = page.getByRole('button', { name: 'Sign In' })
  expect(await signIn.evaluate((el) => getComputedStyle(el).transitionDuration)).toMatch(/^1e-05s|0\.00001s/)

  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' })
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(246, 247, 251)',
  )
  expect(await signIn.evaluate((el) => getComputedStyle(el).transitionDuration)).not.toMatch(/^1e-05s/)
})
