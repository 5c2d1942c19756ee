/**
 * Citations checked (issue 39, D129) in real Chromium, with a scripted model: one figure cited
 * right, one cited to the wrong passage (repaired: its marker moved to the passage holding it),
 * one invented (unverified) and one left uncited. The markers show the outcomes, the panel
 * highlights what it found and lists what it lacks, and the Markdown export and a share link
 * carry the outcome.
 */
import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import { LLM_APP_URL, scriptModel } from './model.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

test.use({ baseURL: LLM_APP_URL })

const HOTEL = 'The hotel allowance for the harbour trip is 120 euros a night.'
const MEALS = 'The meal allowance for the harbour trip is 45 euros a day.'
const QUESTION = 'What allowances are there for the harbour trip?'

/** A text file with the two facts far apart (so in passages of their own) among filler without figures. */
function allowancesFile() {
  const filler = Array.from(
    { length: 180 },
    (_, i) =>
      `This part of the handbook covers mooring rules, tides and opening hours, section ${'abcdefghij'[i % 10]}.`,
  )
  filler.splice(150, 0, MEALS)
  filler.splice(20, 0, HOTEL)
  return { name: 'allowances.txt', mimeType: 'text/plain', buffer: Buffer.from(filler.join('\n')) }
}

async function ask(page: Page, question: string) {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
}

/** The [n] each fact was given to the model by, read from the answer that cited nothing. */
async function numbering(page: Page): Promise<{ hotel: number; meals: number }> {
  const id = /\/dashboard\/c\/([0-9a-f-]{36})/.exec(page.url())?.[1]
  const body = await (await page.request.get(`/api/v1/chat/sessions/${id}/messages`)).json()
  const sources: { citation: number; quote: string }[] = body.data.at(-1).sources
  const of = (fact: string) => sources.find((s) => s.quote.includes(fact))?.citation ?? 0
  return { hotel: of(HOTEL), meals: of(MEALS) }
}

test('a checked, a repaired and an unverified citation show as such, in the panel, the Markdown export and a share link', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1280, height: 860 })
  await signUpAndIn(page, uniqueEmail('checks'))
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Attach file' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upload File' })
  await dialog.getByLabel('File to upload').setInputFiles(allowancesFile())
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(dialog).toHaveCount(0)

  // A first answer cites nothing: it keeps every passage given, which tells the numbers.
  await scriptModel('Let me look at the allowances.')
  await ask(page, QUESTION)
  const answer = main.locator('li[data-sender="bot"]').last()
  await expect(answer).toContainText('Let me look', { timeout: 30_000 })
  await expect(answer).toHaveAttribute('data-streaming', 'false')
  await expect(page).toHaveURL(/\/dashboard\/c\//)
  const { hotel, meals } = await numbering(page)
  expect(hotel).toBeGreaterThan(0)
  expect(meals).toBeGreaterThan(0)

  await scriptModel(
    [
      `Meals cost 45 euros a day [${meals}].`,
      `A hotel night costs 120 euros [${meals}].`,
      `A taxi to the port costs 300 euros [${hotel}].`,
      'Dinner on the boat costs 45 euros.',
    ].join(' '),
  )
  await answer.getByRole('button', { name: 'Regenerate' }).click()
  await expect(answer).toContainText('A taxi to the port', { timeout: 30_000 })
  await expect(answer).toHaveAttribute('data-streaming', 'false')

  const checked = answer.getByRole('button', { name: `Show passage ${meals}, checked`, exact: true })
  const repaired = answer.getByRole('button', {
    name: `Show passage ${hotel}, checked (moved here from passage ${meals})`,
    exact: true,
  })
  const unverified = answer.getByRole('button', {
    name: `Show passage ${hotel}: 300 euros not found in the passage`,
    exact: true,
  })
  await expect(checked).toHaveText(`[${meals}✓]`)
  await expect(repaired).toHaveText(`[${hotel}✓]`)
  await expect(unverified).toHaveText(`[${hotel}⚠]`)
  await expect(answer.getByRole('list', { name: 'Not cited' })).toContainText(
    'Not cited: “Dinner on the boat costs 45 euros.” names no source.',
  )
  await snap(page, '39-citation-outcomes')

  await checked.click()
  const mealsPanel = main.getByRole('region', { name: `Passage ${meals} from allowances.txt` })
  await expect(mealsPanel.locator('[data-found]')).toHaveText(['45'])
  await expect(mealsPanel.getByRole('note')).toHaveCount(0)
  await snap(page, '39-citation-panel-checked')

  await unverified.click()
  const hotelPanel = main.getByRole('region', { name: `Passage ${hotel} from allowances.txt` })
  await expect(hotelPanel.locator('[data-found]')).toHaveText(['120'])
  await expect(hotelPanel.getByRole('note')).toHaveText('⚠ Not found in this passage: 300 euros')
  await expect(hotelPanel).toContainText(`Moved here from passage ${meals}: “A hotel night costs 120 euros.”`)
  await snap(page, '39-citation-panel-unverified')
  await hotelPanel.getByRole('button', { name: 'Close' }).click()

  // The outcome survives a reload: it was stored with the answer.
  await page.reload()
  await expect(answer.getByRole('button', { name: /not found in the passage$/ })).toBeVisible()

  await main.getByRole('button', { name: 'Export' }).click()
  const downloading = page.waitForEvent('download')
  await main.getByRole('menuitem', { name: 'Markdown (.md)' }).click()
  const markdown = await readFile((await (await downloading).path()) ?? '', 'utf8')
  expect(markdown).toContain(
    '> ⚠ Unverified: “A taxi to the port costs 300 euros.” (300 euros not found in the cited passage)',
  )
  expect(markdown).toContain('> ⚠ Not cited: “Dinner on the boat costs 45 euros.” names no source')
  // The repaired marker names the passage that holds the figure, in the file too.
  expect(markdown).not.toContain('Unverified: “A hotel night')

  await main.getByRole('button', { name: 'Share' }).click()
  const share = page.getByRole('dialog', { name: 'Share this conversation' })
  await share.getByRole('button', { name: 'Create link' }).click()
  const link = share.getByRole('textbox', { name: 'Read-only link' })
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/)
  const url = await link.inputValue()

  const reader = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
  await reader.goto(url)
  const shared = reader.getByRole('listitem', { name: 'Answer' }).last()
  await expect(
    shared.getByRole('button', { name: `Show passage ${meals}, checked`, exact: true }),
  ).toBeVisible()
  const sharedWarning = shared.getByRole('button', {
    name: `Show passage ${hotel}: 300 euros not found in the passage`,
    exact: true,
  })
  await expect(sharedWarning).toHaveText(`[${hotel}⚠]`)
  await expect(shared.getByRole('list', { name: 'Not cited' })).toContainText(
    'Dinner on the boat costs 45 euros.',
  )
  await sharedWarning.click()
  await expect(shared.getByRole('note')).toHaveText('⚠ Not found in this passage: 300 euros')
  await snap(reader, '39-shared-citation-outcomes')
})
