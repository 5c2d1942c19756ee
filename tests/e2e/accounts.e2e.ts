import { expect, test } from '@playwright/test'
import { snap } from './screens.ts'

const password = 'correct horse battery'

function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

test('a signed-out visitor who opens /dashboard lands on /login', async ({ page }) => {
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
  await snap(page, '01-login')
})

test('an unknown path lands on /login', async ({ page }) => {
  await page.goto('/no/such/page')
  await expect(page).toHaveURL(/\/login$/)
})

test('sign up, sign in, see my email, reload and stay signed in, log out', async ({ page }) => {
  const email = uniqueEmail('ada')

  await page.goto('/login')
  await page.getByRole('link', { name: 'Sign up' }).click()
  await expect(page).toHaveURL(/\/register$/)

  // What a person sees when they get it wrong first.
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByText('Email is required')).toBeVisible()
  await page.getByLabel('Email').fill('not-an-email')
  await page.getByLabel('Password', { exact: true }).fill('short')
  await page.getByLabel('Confirm Password').fill('different')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByText('Invalid email')).toBeVisible()
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible()
  await expect(page.getByText('Passwords must match')).toBeVisible()
  await snap(page, '02-register-errors')

  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm Password').fill(password)
  await page.getByRole('button', { name: 'Show password' }).first().click()
  await expect(page.getByLabel('Confirm Password')).toHaveAttribute('type', 'text')
  await snap(page, '03-register-filled')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/login$/)

  // A wrong password gets the spec's message, not a hint about which part was wrong.
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('wrong password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password')
  await snap(page, '04-login-error')

  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByText('Start a conversation')).toBeVisible()
  await snap(page, '05-dashboard')

  await page.reload()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText(email)).toBeVisible()

  await page.getByRole('link', { name: 'Settings' }).first().click()
  await expect(page.getByLabel('Display Name')).toBeVisible()
  await snap(page, '06-settings')

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login$/)
})

test('the dashboard is usable on a phone-sized screen', async ({ page }) => {
  const email = uniqueEmail('mobile')
  await page.setViewportSize({ width: 390, height: 844 })
  const register = await page.request.post('/api/v1/auth/register', {
    data: { email, password, confirmPassword: password },
  })
  expect(register.status()).toBe(201)
  await page.goto('/login')
  await snap(page, '07-login-mobile')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText(email)).toBeVisible()
  await snap(page, '08-dashboard-mobile')
})
