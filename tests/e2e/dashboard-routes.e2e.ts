/**
 * The address is the dashboard's truth: every section opens from its URL, Back and Forward walk
 * between sections and into a conversation, a reload keeps the section. A dashboard file that
 * does not load shows a way out (Try again, or Reload page after a deploy), never a blank page.
 */
import { expect, type Page, test } from '@playwright/test'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

// The dashboard's file (src/app/on-demand-pages.ts); the account screens are a file of their own.
const DASHBOARD_CHUNK = '**/assets/on-demand-pages-*.js'

const SECTIONS = [
  ['/dashboard/chat', 'Chat with Docs'],
  ['/dashboard/docs', 'Documents'],
  ['/dashboard/integrations', 'Integrations'],
  ['/dashboard/history', 'Conversation History'],
  ['/dashboard/settings', 'Settings'],
] as const

const sectionLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name, exact: true })

async function expectSection(page: Page, label: string) {
  await expect(page).toHaveTitle(`${label} · DocChat`)
  await expect(sectionLink(page, label)).toHaveAttribute('aria-current', 'page')
}

test('every section opens from its own URL, and a reload keeps it', async ({ page }) => {
  await signUpAndIn(page, uniqueEmail('routes'))

  for (const [path, label] of SECTIONS) {
    await page.goto(path)
    await expectSection(page, label)
    await expect(sectionLink(page, label)).toHaveAttribute('href', path)
    await snap(page, `40-route-${path.split('/').at(-1)}`)
  }
  await page.reload()
  await expect(page).toHaveURL(/\/dashboard\/settings$/)
  await expectSection(page, 'Settings')
  await expect(page.getByLabel('Display Name')).toBeVisible()

  await page.goto('/dashboard/no-such-section')
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await expectSection(page, 'Chat with Docs')
})

test('Back and Forward walk between sections and into a conversation', async ({ page }) => {
  await signUpAndIn(page, uniqueEmail('back'))
  const main = page.getByRole('main')
  const question = 'Where did I put the budget?'
  await page.getByPlaceholder('Type your message...').fill(question)
  await page.getByPlaceholder('Type your message...').press('Enter')
  await expect(main.getByText(/No language model is configured/)).toBeVisible()
  // The new chat became its conversation's address in place: no empty chat to go Back to.
  await expect(page).toHaveURL(/\/dashboard\/c\/[0-9a-f-]{36}$/)
  const conversation = page.url()

  await sectionLink(page, 'Conversation History').click()
  await expectSection(page, 'Conversation History')
  await sectionLink(page, 'Documents').click()
  await expectSection(page, 'Documents')
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click()
  await expectSection(page, 'Settings')

  await page.goBack()
  await expect(page).toHaveURL(/\/dashboard\/docs$/)
  await expectSection(page, 'Documents')
  await page.goBack()
  await expect(page).toHaveURL(/\/dashboard\/history$/)
  await expect(main.getByRole('heading', { name: 'Conversation History' })).toBeVisible()
  await page.goBack()
  await expect(page).toHaveURL(conversation)
  await expect(main.getByRole('log').getByText(question)).toBeVisible()
  await snap(page, '41-back-into-conversation')
  await page.goForward()
  await expectSection(page, 'Conversation History')

  // Chat with Docs starts a new chat at its own address; Back returns to the conversation.
  await page.goBack()
  await sectionLink(page, 'Chat with Docs').click()
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await expect(main.getByText('Start a conversation')).toBeVisible()
  await page.goBack()
  await expect(page).toHaveURL(conversation)
  await expect(main.getByRole('log').getByText(question)).toBeVisible()
})

test('a dashboard file that does not load offers Try again, which loads it once it can', async ({ page }) => {
  await signUpAndIn(page, uniqueEmail('chunk'))
  await page.route(DASHBOARD_CHUNK, (route) => route.abort('connectionfailed'))

  await page.goto('/dashboard/history')
  await expect(page.getByRole('heading', { name: 'This page did not load' })).toBeVisible()
  await expect(page.getByRole('alert')).toContainText('Check your internet connection, then try again.')
  await expect(page.getByRole('button', { name: 'Reload page' })).toBeVisible()
  await snap(page, '42-chunk-not-loaded')

  await page.unroute(DASHBOARD_CHUNK)
  await page.getByRole('button', { name: 'Try again' }).click()
  await expectSection(page, 'Conversation History')
  await expect(page).toHaveURL(/\/dashboard\/history$/)
})

test('a dashboard file gone after a deploy asks for a reload, which brings the page back', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('deploy'))
  await page.route(DASHBOARD_CHUNK, (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found\n' }),
  )

  await page.goto('/dashboard/docs')
  await expect(page.getByRole('heading', { name: 'DocChat has been updated' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0)
  await snap(page, '43-chunk-gone-after-deploy')

  await page.unroute(DASHBOARD_CHUNK)
  await page.getByRole('button', { name: 'Reload page' }).click()
  await expectSection(page, 'Documents')
})
