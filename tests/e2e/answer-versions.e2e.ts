/**
 * Answer versions and a dislike's reason (issue 26, D93) in real Chromium, at a desktop's 1280 px
 * and a phone's 375 px, light and dark, with screenshots to look at and axe on each screen:
 * Regenerate keeps the first answer behind ‹ 1/2 ›; stepping back by keyboard shows it with its
 * own citation; the version shown survives a reload and shows on another device; a dislike asks
 * why, optionally.
 */
import { type Browser, expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { factFile, LAYOUTS, LLM_APP_URL, SCHEMES, scriptModel } from './model.ts'
import { snap } from './screens.ts'
import { PASSWORD, signUpAndIn, uniqueEmail } from './session.ts'

async function newPage(browser: Browser, viewport: { width: number; height: number }, scheme: string) {
  // bypassCSP: axe is injected as a script the pages' CSP would refuse.
  const context = await browser.newContext({ baseURL: LLM_APP_URL, bypassCSP: true, viewport })
  const page = await context.newPage()
  await page.emulateMedia({ colorScheme: scheme as 'light' | 'dark' })
  return page
}

async function signIn(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

const FIRST = 'The buoy code is PELICAN-6620, kept in the tide office [1].'
const SECOND = 'I could not find a buoy code in your files.'

for (const { name: layout, viewport } of LAYOUTS) {
  for (const scheme of SCHEMES) {
    test(`Regenerate keeps the first answer behind ‹ 1/2 ›; a dislike may say why (${layout}, ${scheme})`, async ({
      browser,
    }) => {
      test.setTimeout(120_000)
      const shot = (name: string) => snap(page, `26-versions-${name}-${layout}-${scheme}`)
      const page = await newPage(browser, viewport, scheme)
      const email = uniqueEmail(`versions-${layout}`)
      await signUpAndIn(page, email)
      const main = page.getByRole('main')

      // A file in the new chat, so the first answer cites a passage of it.
      await main.getByRole('button', { name: 'Attach file' }).click()
      const dialog = page.getByRole('dialog', { name: 'Upload File' })
      await dialog
        .getByLabel('File to upload')
        .setInputFiles(
          factFile(
            'harbour-handbook.txt',
            'The harbour master keeps the buoy code PELICAN-6620 in the tide office.',
          ),
        )
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
      await expect(dialog).toHaveCount(0)
      await scriptModel(FIRST)
      const input = page.getByPlaceholder('Type your message...')
      await input.fill('What is the buoy code of the harbour?')
      await input.press('Enter')
      const answer = main.locator('li[data-sender="bot"]')
      await expect(answer.getByRole('button', { name: 'Show passage 1' })).toBeVisible({ timeout: 30_000 })
      await expect(main.locator('li[data-streaming="true"]')).toHaveCount(0)
      await expect(answer.getByRole('group', { name: 'Answer versions' })).toHaveCount(0)

      // Regenerate: version 2 of 2, its own text, no citation.
      await scriptModel(SECOND)
      await answer.getByRole('button', { name: 'Regenerate' }).click()
      await expect(answer).toContainText(SECOND, { timeout: 30_000 })
      await expect(main.locator('li[data-streaming="true"]')).toHaveCount(0)
      const versions = answer.getByRole('group', { name: 'Answer versions' })
      await expect(versions).toContainText('2/2')
      await expect(answer.getByRole('button', { name: 'Show passage 1' })).toHaveCount(0)
      await shot('second')
      await expectNoAxeViolations(page, `answer versions, ${layout} ${scheme}`)

      // By keyboard: Previous version; the first answer comes back with its citation.
      const previous = versions.getByRole('button', { name: 'Previous version' })
      await previous.focus()
      await page.keyboard.press('Enter')
      await expect(versions).toContainText('1/2')
      await expect(answer).toContainText('The buoy code is PELICAN-6620')
      await expect(previous).toBeFocused()
      await expect(previous).toHaveAttribute('aria-disabled', 'true')
      await answer.getByRole('button', { name: 'Show passage 1' }).click()
      const panel = main.getByRole('region', { name: 'Passage 1 from harbour-handbook.txt' })
      await expect(panel.locator('mark')).toContainText('PELICAN-6620')
      await shot('first-with-passage')
      await page.keyboard.press('Escape')
      await expect(panel).toHaveCount(0)

      // Stored: a reload and another device show version 1 too.
      await page.reload()
      await expect(versions).toContainText('1/2')
      await expect(answer).toContainText('The buoy code is PELICAN-6620')
      const address = page.url()
      const other = await newPage(browser, viewport, scheme)
      await signIn(other, email)
      await other.goto(address)
      const otherAnswer = other.getByRole('main').locator('li[data-sender="bot"]')
      await expect(otherAnswer.getByRole('group', { name: 'Answer versions' })).toContainText('1/2')
      await expect(otherAnswer).toContainText('The buoy code is PELICAN-6620')
      await other.context().close()

      // A dislike asks why, optionally; the reason and a note are sent and thanked.
      await answer.getByRole('button', { name: 'Dislike' }).click()
      const form = main.getByRole('form', { name: 'Why this answer did not help' })
      await expect(form).toBeVisible()
      await expect(answer.getByRole('button', { name: 'Dislike' })).toHaveAttribute('aria-pressed', 'true')
      await form.getByRole('radio', { name: 'Sources don’t back it up' }).check()
      await form
        .getByRole('textbox', { name: 'Tell us more (optional)' })
        .fill('The code is on page 2, not here.')
      await form.scrollIntoViewIfNeeded()
      await shot('dislike-reason')
      await expectNoAxeViolations(page, `dislike reason, ${layout} ${scheme}`)
      await form.getByRole('button', { name: 'Send' }).click()
      await expect(answer.getByText('Thanks for telling us.')).toBeVisible()
      await expect(form).toHaveCount(0)

      // The reason is stored with the version shown.
      const messages = await page.request.get(`/api/v1/chat/sessions/${address.split('/').pop()}/messages`)
      const stored = (await messages.json()).data.at(-1)
      expect(stored).toMatchObject({
        version: 1,
        versionCount: 2,
        feedback: 'dislike',
        feedbackReason: 'unsupported',
        feedbackNote: 'The code is on page 2, not here.',
      })
      await page.context().close()
    })
  }
}
