import { expect, type Page } from '@playwright/test'

export const PASSWORD = 'correct horse battery'

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

/** Signs a new account up through the API and in through the screen: the dashboard is open. */
export async function signUpAndIn(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/api/v1/auth/register', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD },
  })
  expect(response.status()).toBe(201)
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

/** Signs an existing account in through the screen: the dashboard is open. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

/**
 * Connects the signed-in person's Google Drive as a browser does: Integrations, Connect Now, the
 * emulator's consent window (its first account, Ada, unless `account` names another), Allow.
 */
export async function connectDrive(page: Page, account?: string): Promise<void> {
  // On a phone the sections are in the menu drawer.
  const menu = page.getByRole('button', { name: 'Menu' })
  if (await menu.isVisible()) await menu.click()
  await page.getByRole('link', { name: 'Integrations', exact: true }).click()
  const popupOpened = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Connect Now' }).click()
  const popup = await popupOpened
  if (account) await popup.getByRole('radio', { name: account }).check()
  await popup.getByRole('button', { name: 'Allow' }).click()
  await expect(popup.getByText(/Google Drive connected/)).toBeVisible()
  await popup.close()
}
