/**
 * Settings → Usage after a few answers (issue 38, D126), on the server with a language model:
 * the chart's figures are the tokens the server recorded (read from the usage call the page
 * made), and the API's reference page renders the OpenAPI document under its own CSP (D127).
 */
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { type UsageReport, usageEndpoints } from '../../contracts/usage.ts'
import type { Reply } from '../fakes/openai-compatible.ts'
import { SCREENSHOT_DIR, snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const APP_URL = process.env.E2E_LLM_APP_URL ?? 'http://127.0.0.1:3101'
const FAKE_URL = process.env.E2E_FAKE_LLM_URL ?? 'http://127.0.0.1:4111'

test.use({ baseURL: APP_URL })

async function script(reply: Reply) {
  const response = await fetch(`${FAKE_URL}/__fake/reply`, { method: 'POST', body: JSON.stringify(reply) })
  expect(response.status).toBe(204)
}

async function ask(page: Page, question: string, answer: string) {
  await script({ kind: 'text', text: answer, tokenDelayMs: 10 })
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
  await expect(page.getByRole('main').getByText(answer)).toBeVisible()
  await expect(page.getByRole('main').locator('li[data-sender="bot"]').last()).toHaveAttribute(
    'data-streaming',
    'false',
  )
}

const count = (n: number) => n.toLocaleString('en-US')

test("after a few answers, Settings → Usage shows the app's recorded tokens and answers for today", async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('usage'))
  await ask(page, 'What do trips cost?', 'Trips cost what the travel policy says they cost.')
  await ask(page, 'And meals abroad?', 'Meals abroad are paid at the daily allowance of the country.')
  await ask(page, 'Who approves them?', 'Your manager approves every trip before you book it.')

  const read = page.waitForResponse((r) => new URL(r.url()).pathname === usageEndpoints.usage.path)
  await page.goto('/dashboard/settings#usage')
  const report: UsageReport = usageEndpoints.usage.response.parse(await (await read).json()).data
  const today = report.days.at(-1)
  if (!today) throw new Error('the usage call answered no days')
  expect(today.sources.app.answers).toBe(3)
  expect(today.sources.app.tokens).toBeGreaterThan(0)

  const usage = page.getByRole('region', { name: 'Usage' })
  const tokens = today.sources.app.tokens
  await expect(
    usage.getByRole('img', {
      name: `Tokens in the last 30 days: ${count(tokens)}; the most on ${today.day}: ${count(tokens)}.`,
    }),
  ).toBeVisible()
  await expect(
    usage.getByRole('img', { name: `Answers in the last 30 days: 3; the most on ${today.day}: 3.` }),
  ).toBeVisible()
  await usage.getByText('Show the figures as a table').click()
  const row = usage.getByRole('row', { name: new RegExp(`^${today.day}`) })
  await expect(row.getByRole('cell')).toHaveText([count(tokens), '0', '0', '3', '0', '0'])
  await usage.scrollIntoViewIfNeeded()
  await snap(page, '90-settings-usage')
})

test('the API reference renders the OpenAPI document with no script from elsewhere', async ({ page }) => {
  // The bundle is 4.8 MB of script: parsing it takes seconds on a busy machine.
  test.setTimeout(90_000)
  const refused: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') refused.push(m.text())
  })
  const outside: string[] = []
  page.on('request', (r) => {
    if (!r.url().startsWith(APP_URL)) outside.push(r.url())
  })
  await page.goto('/api/docs')
  await expect(page.getByRole('heading', { name: 'DocChat API' }).first()).toBeVisible({ timeout: 60_000 })
  await page.getByRole('link', { name: 'usage', exact: true }).click()
  await expect(page.getByText('/api/v1/usage').first()).toBeVisible()
  // The page is many screens long: the usage call, as a person lands on it.
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, '91-api-reference.png') })
  expect(refused.filter((t) => /Content Security Policy/i.test(t))).toEqual([])
  expect(outside).toEqual([])
})
