import { expect, test } from '@playwright/test'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

test('send, find it in History, like it, reload, still liked, delete it', async ({ page }) => {
  await signUpAndIn(page, uniqueEmail('chat'))
  const question = 'What can you do for me?'

  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
  const chat = page.getByRole('main')
  await expect(chat.getByRole('log').getByText(question)).toBeVisible()
  // No model and no documents here: the assistant says so honestly.
  await expect(chat.getByText(/No language model is configured/)).toBeVisible()
  await snap(page, '10-chat-reply')

  await page.getByRole('link', { name: 'Conversation History' }).click()
  await expect(page.getByText('Today')).toBeVisible()
  await expect(chat.getByText(question)).toBeVisible()
  await snap(page, '11-history')

  await chat.getByText(question).first().click()
  const like = chat.getByRole('button', { name: 'Like', exact: true })
  await expect(like).toBeVisible()
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')

  await page.reload()
  await page.getByRole('link', { name: 'Conversation History' }).click()
  await chat.getByText(question).first().click()
  await expect(chat.getByRole('button', { name: 'Like', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await snap(page, '12-liked-after-reload')

  await page.getByRole('link', { name: 'Conversation History' }).click()
  await chat.getByRole('button', { name: 'Delete conversation' }).first().click()
  await chat.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(chat.getByRole('heading', { name: 'No conversations yet' })).toBeVisible()
  await page.reload()
  await page.getByRole('link', { name: 'Conversation History' }).click()
  await expect(chat.getByRole('heading', { name: 'No conversations yet' })).toBeVisible()
})

test('a second user never sees the first user’s conversations', async ({ browser }) => {
  const first = await browser.newPage()
  await signUpAndIn(first, uniqueEmail('first'))
  const secret = `My private note ${Date.now()}`
  await first.getByPlaceholder('Type your message...').fill(secret)
  await first.getByRole('button', { name: 'Send message' }).click()
  await expect(first.getByRole('log').getByText(secret)).toBeVisible()
  await expect(first.getByText(/No language model is configured|couldn't find/).last()).toBeVisible()

  const second = await browser.newPage()
  await signUpAndIn(second, uniqueEmail('second'))
  await second.getByRole('link', { name: 'Conversation History' }).click()
  await expect(second.getByRole('main').getByText('No conversations yet')).toBeVisible()
  await expect(second.getByText(secret)).toHaveCount(0)
})
