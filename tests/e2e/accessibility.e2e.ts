/**
 * WCAG 2.2 AA in a real browser: axe-core (its script injected into the page) on every screen, in
 * the light and the dark scheme, on a desktop and a 320 px phone; plus the layout rules axe cannot
 * see (no sideways scrolling, Logout and Send never cut off) and reduced motion.
 */
import { expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

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
      test.setTimeout(90_000)
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
