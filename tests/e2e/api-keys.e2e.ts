/**
 * Personal API keys in real Chromium (issue 38): in Settings make a library key, copy it once
 * (read back from the clipboard), see it listed by its prefix, use it from a program (fetch
 * without the page's cookies) against /api/v1/documents, revoke it (asked first), and see the
 * same call refused. Screenshots of the dialogs and the list to look at.
 */
import { expect, test } from '@playwright/test'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

/** GET /api/v1/documents as a program calls it: the key in the header, no cookies. */
async function listWithKey(page: import('@playwright/test').Page, key: string) {
  return page.evaluate(async (k) => {
    const response = await fetch('/api/v1/documents', {
      credentials: 'omit',
      headers: { authorization: `Bearer ${k}` },
    })
    return { status: response.status, body: (await response.json()) as { message?: string } }
  }, key)
}

test('a key made in Settings is shown once, listed by prefix, works from a program, and ends when revoked', async ({
  page,
}) => {
  // Sign-up, the settings screen, four screenshots and two programs' calls: more than the default.
  test.setTimeout(90_000)
  await signUpAndIn(page, uniqueEmail('api-keys'))
  await page.goto('/dashboard/settings')
  await page.getByRole('button', { name: 'New API key' }).click()
  const form = page.getByRole('dialog', { name: 'New API key' })
  await form.getByLabel('Name').fill('Nightly sync')
  await form.getByLabel('What it may do').selectOption('library')
  await snap(page, 'api-keys-01-new')
  await form.getByRole('button', { name: 'Make the key' }).click()

  const shown = page.getByRole('dialog', { name: 'Your key “Nightly sync”' })
  await expect(shown.getByText('it will not be shown again')).toBeVisible()
  await shown.getByRole('button', { name: 'Copy the key' }).click()
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible()
  const key = await page.evaluate(() => navigator.clipboard.readText())
  expect(key).toMatch(/^dc_[\w-]{43}$/)
  await expect(shown.getByText(key)).toBeVisible()
  await snap(page, 'api-keys-02-shown-once')
  await shown.getByRole('button', { name: 'Done' }).click()

  const list = page.getByRole('list', { name: 'API keys' })
  await expect(list.getByText(`${key.slice(0, 11)}…`)).toBeVisible()
  await expect(page.getByText(key)).toHaveCount(0)
  await snap(page, 'api-keys-03-listed')

  const allowed = await listWithKey(page, key)
  expect(allowed.status).toBe(200)

  await list.getByRole('button', { name: 'Revoke Nightly sync' }).click()
  const ask = page.getByRole('dialog', { name: 'Revoke this key?' })
  await snap(page, 'api-keys-04-revoke')
  await ask.getByRole('button', { name: 'Revoke' }).click()
  await expect(list.getByText('Nightly sync')).toHaveCount(0)

  const refused = await listWithKey(page, key)
  expect(refused.status).toBe(401)
  expect(refused.body.message).toContain('This API key was revoked.')
})
