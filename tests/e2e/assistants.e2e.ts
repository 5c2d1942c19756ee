/**
 * Issue 36 as a new person meets it: connect Drive, sync it, build an assistant whose knowledge is
 * one Drive folder, try it beside the form, ask its starter question and get a cited answer from
 * that folder only; a question the folder cannot answer gets the assistant's fallback, though the
 * library holds the answer. Then the chat: "New chat" offers the assistant and shows its name.
 */
import { expect, type Page, test } from '@playwright/test'
import { snap } from './screens.ts'
import { connectDrive, signUpAndIn, uniqueEmail } from './session.ts'

const STARTER = 'What codename did the Q3 retrospective choose?'
const FALLBACK = 'That is not in the project files. Ask the project office.'

async function syncDrive(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  await expect(main.getByRole('status').filter({ hasText: /^Ingested/ })).toBeVisible({ timeout: 90_000 })
}

test('a new person builds an assistant from a Drive folder, tries it beside the form, and gets a cited answer from that folder only', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signUpAndIn(page, uniqueEmail('assistant'))
  await connectDrive(page)
  await syncDrive(page)

  await page.getByRole('link', { name: 'Assistants', exact: true }).click()
  await expect(page.getByText('No assistants yet')).toBeVisible()
  await snap(page, '90-assistants-empty')
  await page.getByRole('button', { name: 'New assistant' }).click()
  await expect(page).toHaveURL(/\/dashboard\/assistants\/[0-9a-f-]{36}$/)

  const form = page.getByRole('form', { name: 'Assistant settings' })
  await form.getByLabel('Name', { exact: true }).fill('Projects bot')
  await form.getByLabel('Instructions').fill('Answer briefly and kindly.')
  await form.getByRole('checkbox', { name: 'Projects' }).check()
  await form.getByRole('button', { name: 'Add a starter question' }).click()
  await form.getByLabel('Starter question 1').fill(STARTER)
  await form.getByRole('textbox', { name: 'Fallback answer' }).fill(FALLBACK)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved.')).toBeVisible()
  await snap(page, '91-assistant-form')

  // Try it: the starter question is a button; the answer quotes the folder's file and cites it.
  const tryIt = page.getByRole('complementary', { name: 'Try it' })
  await tryIt.getByRole('button', { name: STARTER }).click()
  await expect(tryIt.getByText(/BLUE HERON/).last()).toBeVisible({ timeout: 30_000 })
  await expect(tryIt.getByRole('link', { name: /meeting-minutes\.md/ }).first()).toBeVisible()
  await expect(tryIt.getByText(/cobalt-db-17|AURORA-7731/)).toHaveCount(0)
  await snap(page, '92-assistant-try-it-answer')

  // The library answers this (notes.txt), the folder does not: the assistant's own fallback.
  await tryIt.getByLabel('Ask the assistant').fill('Which host does the staging database run on?')
  await tryIt.getByRole('button', { name: 'Send' }).click()
  await expect(tryIt.getByText(FALLBACK)).toBeVisible({ timeout: 30_000 })
  await expect(tryIt.getByText(/cobalt-db-17/)).toHaveCount(0)
  await snap(page, '93-assistant-fallback')

  // The chat offers the assistant beside "New chat", and the header names it.
  await page.getByRole('button', { name: 'New chat with an assistant' }).click()
  await page.getByRole('menuitem', { name: 'Projects bot' }).click()
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(STARTER)
  await input.press('Enter')
  const main = page.getByRole('main')
  await expect(main.getByText(/BLUE HERON/).last()).toBeVisible({ timeout: 30_000 })
  await expect(main.getByText('Assistant: Projects bot').first()).toBeVisible()
  await expect(main.getByText('Searching: the documents of Projects bot')).toBeVisible()
  await snap(page, '94-chat-with-assistant')
})
