/**
 * Accounts in real Chromium (issue 23): forgot → the mail (read from the SMTP capture the server
 * really sent it to) → reset → sign in; in Settings change the password, sign another session
 * out, delete the account; Sign in with Google through the emulator's consent page. The new
 * screens pass axe in the light and the dark scheme.
 */
import { type Browser, expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { snap } from './screens.ts'
import { PASSWORD, signUpAndIn, uniqueEmail } from './session.ts'

// axe is injected as an inline script, which the pages' CSP refuses.
test.use({ bypassCSP: true })

type Mail = { to: string[]; subject: string; text: string }

/** The reset link of the newest mail to `email`, once it has arrived. */
async function resetLinkMailedTo(page: Page, email: string): Promise<string> {
  const mailbox = process.env.E2E_MAILBOX_URL ?? ''
  let link = ''
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${mailbox}/messages?to=${encodeURIComponent(email)}`)
        const { messages } = (await response.json()) as { messages: Mail[] }
        const mail = messages.at(-1)
        link = mail?.text.split(/\s+/).find((word) => word.includes('/reset-password?token=')) ?? ''
        return link
      },
      { timeout: 10_000 },
    )
    .not.toBe('')
  return link
}

async function signInWith(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

test('forgot password: the mailed link sets a new password, and it signs in', async ({ page }) => {
  const email = uniqueEmail('forgot')
  await signUpAndIn(page, email)
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)

  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await snap(page, 'accounts-01-forgot')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('status')).toContainText(`If an account exists for ${email}`)
  await snap(page, 'accounts-02-forgot-sent')

  const link = await resetLinkMailedTo(page, email)
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]{43}$/)
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill('a new passphrase')
  await page.getByLabel('Confirm Password').fill('a new passphrase')
  await snap(page, 'accounts-03-reset')
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(page).toHaveURL(/\/login\?notice=password-reset$/)
  await expect(page.getByRole('status')).toHaveText(
    'Your password is changed and you are signed out everywhere. Sign in with the new one.',
  )
  await snap(page, 'accounts-04-login-after-reset')

  // The same link again is refused, with a way to ask for another.
  await page.goto(link)
  await page.getByLabel('Password', { exact: true }).fill('yet another one')
  await page.getByLabel('Confirm Password').fill('yet another one')
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(page.getByRole('alert')).toContainText('This reset link does not work')
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible()
  await snap(page, 'accounts-05-reset-link-used')

  await signInWith(page, email, PASSWORD)
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password')
  await signInWith(page, email, 'a new passphrase')
  await expect(page).toHaveURL(/\/dashboard$/)
})

// Issue 26: successful sign-ins do not count toward the per-account and per-address limits
// (D80); before, the eleventh in 15 minutes said 'Too many attempts'.
test('twelve successful sign-ins in a row all reach the dashboard', async ({ page, context }) => {
  test.setTimeout(60_000)
  const email = uniqueEmail('twelve')
  await signUpAndIn(page, email)
  for (let round = 2; round <= 12; round += 1) {
    await context.clearCookies()
    await signInWith(page, email, PASSWORD)
    await expect(page, `sign-in ${round}`).toHaveURL(/\/dashboard$/)
  }
  await expect(page.getByText(email)).toBeVisible()
})

async function secondBrowserSignedIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
  })
  const page = await context.newPage()
  await signInWith(page, email, password)
  await expect(page).toHaveURL(/\/dashboard$/)
  return { context, page }
}

test('Settings: sign another session out, then change the password', async ({ page, browser }) => {
  const email = uniqueEmail('settings')
  await signUpAndIn(page, email)
  const other = await secondBrowserSignedIn(browser, email, PASSWORD)

  await page.goto('/dashboard/settings')
  const sessions = page.getByRole('list', { name: 'Sessions' })
  await expect(sessions.getByText('Firefox on Windows')).toBeVisible()
  await expect(sessions.getByText('this browser')).toBeVisible()
  await snap(page, 'accounts-06-settings')
  await sessions.getByRole('button', { name: /^Sign out Firefox on Windows/ }).click()
  await expect(sessions.getByText('Firefox on Windows')).toHaveCount(0)
  // The other browser is signed out at its next step.
  await other.page.goto('/dashboard/history')
  await expect(other.page).toHaveURL(/\/login$/)

  const again = await secondBrowserSignedIn(browser, email, PASSWORD)
  await page.getByLabel('Current password').fill(PASSWORD)
  await page.getByLabel('New password').fill('changed passphrase')
  await page.getByLabel('Confirm Password').first().fill('changed passphrase')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Password changed. 1 other session was signed out.')).toBeVisible()
  await snap(page, 'accounts-07-password-changed')
  await again.page.goto('/dashboard/docs')
  await expect(again.page).toHaveURL(/\/login$/)
  // This browser stays signed in.
  await page.goto('/dashboard/chat')
  await expect(page.getByText(email)).toBeVisible()
  await other.context.close()
  await again.context.close()
})

test('Settings: delete my account; it lands on /login and signs in no more', async ({ page }) => {
  const email = uniqueEmail('delete')
  await signUpAndIn(page, email)
  await page.goto('/dashboard/settings')
  await page.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
  await dialog.getByLabel('Password', { exact: true }).fill('not my password')
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('The password is not right, so nothing was deleted.')
  await snap(page, 'accounts-08-delete-refused')
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page).toHaveURL(/\/login\?notice=account-deleted$/)
  await expect(page.getByRole('status')).toHaveText('Your account and everything it held are deleted.')
  await snap(page, 'accounts-09-deleted')
  await signInWith(page, email, PASSWORD)
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password')
})

test('Sign in with Google through the consent page lands on the dashboard', async ({ page }) => {
  await page.goto('/register')
  await expect(page.getByRole('link', { name: 'Sign in with Google' })).toBeVisible()
  await page.goto('/login')
  await snap(page, 'accounts-10-login-with-google')
  await page.getByRole('link', { name: 'Sign in with Google' }).click()
  await page.getByRole('radio', { name: /carol@example\.com/ }).check()
  await page.getByRole('button', { name: 'Allow' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('carol@example.com')).toBeVisible()
})

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the account screens pass axe, ${colorScheme} scheme`, async ({ page }) => {
    test.setTimeout(60_000)
    await page.emulateMedia({ colorScheme })
    await page.goto('/login?google=cancelled')
    await expect(page.getByRole('alert')).toBeVisible()
    await expectNoAxeViolations(page, 'login with a Google notice')
    await page.goto('/forgot-password')
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()
    await expectNoAxeViolations(page, 'forgot password')
    await page.goto(`/reset-password?token=${'a'.repeat(43)}`)
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
    await expectNoAxeViolations(page, 'reset password')
    await snap(page, `accounts-a11y-${colorScheme}-reset`)
    await page.goto(`/confirm-email?token=${'b'.repeat(43)}`)
    await expect(page.getByRole('alert')).toBeVisible()
    await expectNoAxeViolations(page, 'confirm email (refused)')

    await signUpAndIn(page, uniqueEmail(`a11y-${colorScheme}`))
    await page.goto('/dashboard/settings')
    await expect(page.getByRole('list', { name: 'Sessions' }).getByText('this browser')).toBeVisible()
    await expectNoAxeViolations(page, 'settings')
    await snap(page, `accounts-a11y-${colorScheme}-settings`)
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible()
    await expectNoAxeViolations(page, 'delete dialog')
    await snap(page, `accounts-a11y-${colorScheme}-delete-dialog`)
  })
}
