/**
 * Issue 40, items 3 and 9 in a real browser, on the server with the scripted model: a conversation
 * whose answer holds a table, at 1280, 1024, 375 and 320 px. On a phone the conversation's header is
 * one bar with a menu, and the first message starts near the top; a table scrolls sideways in its
 * own box and never breaks a word; after the answer its question is whole under the bar. Settings →
 * Appearance turns the app dark and back; "New chat" stays at the top of a long sidebar.
 */
import { expect, type Page, test } from '@playwright/test'
import { scriptModel } from './model.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const APP_URL = process.env.E2E_LLM_APP_URL ?? 'http://127.0.0.1:3101'
test.use({ baseURL: APP_URL })

const WIDTHS = [1280, 1024, 375, 320] as const

// Words long enough that a narrow column broke them mid-letter ("Satur/day").
const TABLE_ANSWER = [
  'The harbour office keeps these hours:',
  '',
  '| Day | Opening hours | Where to ask | Notes for visitors |',
  '|---|---|---|---|',
  '| Saturday | 09:00–13:00 | Harbourmaster | Bay moorings only |',
  '| Sunday | Closed | Neighbourhood | Emergencies: VHF channel sixteen |',
  '| Wednesday | 08:00–18:00 | Boathouse | Slipway reservations |',
  '',
  'Call ahead on public holidays.',
].join('\n')

async function ask(page: Page, question: string): Promise<void> {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
}

/** Nothing on the page reaches past the window's right edge (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

for (const width of WIDTHS) {
  test(`a conversation with a table at ${width} px`, async ({ page }) => {
    test.setTimeout(90_000)
    const phone = width < 768
    await page.setViewportSize({ width, height: phone ? 740 : 800 })
    await signUpAndIn(page, uniqueEmail(`phone-${width}`))
    await scriptModel(TABLE_ANSWER)
    await ask(page, 'When is the harbour office open?')

    const main = page.getByRole('main')
    const log = main.getByRole('log', { name: 'Conversation' })
    const answer = log.locator('li[data-sender="bot"]').last()
    await expect(answer).toHaveAttribute('data-streaming', 'false', { timeout: 30_000 })
    await expect(answer.getByRole('table')).toBeVisible()
    await expect(page).toHaveURL(/\/dashboard\/c\//)

    // Item 9: after the answer its question is whole under the bar, not half hidden above the list.
    const question = log.locator('li[data-sender="user"]').last()
    const listTop = (await log.boundingBox())?.y ?? 0
    await expect.poll(async () => (await question.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(listTop)

    // Item 3: no cell breaks a word mid-letter: each cell of one word is one line of text (a time
    // range may still wrap after its dash, as text does).
    const brokenCells = await answer.locator('td, th').evaluateAll((cells) =>
      cells
        .filter((cell) => /^\p{L}+$/u.test((cell.textContent ?? '').trim()))
        .filter((cell) => {
          const range = document.createRange()
          range.selectNodeContents(cell)
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
          return lines.size > 1
        })
        .map((cell) => cell.textContent),
    )
    expect(brokenCells).toEqual([])
    await expectNoSidewaysScroll(page)

    if (phone) {
      // One bar: no Rename, Export or Share buttons and no "Searching" line above the messages.
      await expect(main.getByRole('button', { name: 'Rename' })).toHaveCount(0)
      await expect(main.getByRole('button', { name: 'Share' })).toHaveCount(0)
      await expect(main.getByText(/^Searching:/)).toHaveCount(0)
      const first = log.locator('li').first()
      await log.evaluate((el) => {
        el.scrollTop = 0
      })
      expect((await first.boundingBox())?.y ?? 999).toBeLessThanOrEqual(160)
      // The table is wider than the bubble: it scrolls sideways in its own box.
      const box = answer.getByRole('table').locator('..')
      expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
      await snap(page, `40-phone-conversation-${width}`)

      await main.getByRole('button', { name: 'Conversation options' }).click()
      const menu = page.getByRole('menu')
      for (const item of [
        'Rename',
        'Export as Markdown (.md)',
        'Export as PDF (.pdf)',
        'Share',
        'Choose documents',
      ])
        await expect(menu.getByRole('menuitem', { name: item })).toBeVisible()
      await expect(menu.getByText('Searching: all your documents')).toBeVisible()
      await snap(page, `40-phone-conversation-menu-${width}`)
      await menu.getByRole('menuitem', { name: 'Rename' }).click()
      const field = main.getByRole('textbox', { name: 'Conversation title' })
      await expect(field).toBeFocused()
      await field.fill('Harbour hours')
      await field.press('Enter')
      await expect(main.getByRole('heading', { name: 'Harbour hours' })).toBeVisible()

      await main.getByRole('button', { name: 'Conversation options' }).click()
      await page.getByRole('menuitem', { name: 'Share' }).click()
      await expect(page.getByRole('dialog', { name: 'Share this conversation' })).toBeVisible()
    } else {
      // The wide layout is as it was: the title's row with Rename, Export and Share, then the scope.
      await expect(main.getByRole('button', { name: 'Rename' })).toBeVisible()
      await expect(main.getByRole('button', { name: 'Share' })).toBeVisible()
      await expect(main.getByText('Searching: all your documents')).toBeVisible()
      await snap(page, `40-desktop-conversation-${width}`)
    }
  })
}

test('Settings → Appearance turns the app dark, keeps it after a reload, and System follows the device', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await signUpAndIn(page, uniqueEmail('theme'))
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const light = await background()

  await page.getByRole('link', { name: 'Settings', exact: true }).first().click()
  const appearance = page.getByRole('group', { name: 'Appearance' })
  await expect(appearance.getByRole('radio', { name: 'System' })).toBeChecked()
  await appearance.getByText('Dark', { exact: true }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await background()).not.toBe(light)
  await snap(page, '40-settings-appearance-dark')

  // The choice holds on the next visit, sign-in page included, before anything else is pressed.
  await page.goto('/login')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await background()).not.toBe(light)
  await page.goto('/dashboard/settings')
  await expect(appearance.getByRole('radio', { name: 'Dark' })).toBeChecked()

  // System: the device says dark, then light, and the page follows.
  await appearance.getByText('System', { exact: true }).click()
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./)
  expect(await background()).toBe(light)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await background()).not.toBe(light)
  // Light wins over a dark device.
  await appearance.getByText('Light', { exact: true }).click()
  expect(await background()).toBe(light)
})

test('"New chat" stays at the top of a long sidebar', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 640 })
  await signUpAndIn(page, uniqueEmail('sticky'))
  for (let i = 1; i <= 25; i++) {
    const created = await page.request.post('/api/v1/chat/sessions/create', { data: { title: `Trip ${i}` } })
    expect(created.ok()).toBe(true)
  }
  await page.goto('/dashboard/history')
  const sidebar = page.locator('aside')
  await expect(sidebar.getByText('Trip 25')).toBeVisible()
  expect(await sidebar.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
  // Unscrolled, the bar covers nothing: the first section's link is where a click lands.
  const first = sidebar.getByRole('link', { name: 'Chat with Docs' })
  const at = await first.boundingBox()
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('a')?.textContent,
    [(at?.x ?? 0) + 40, (at?.y ?? 0) + 4],
  )
  expect(hit).toContain('Chat with Docs')
  await sidebar.evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  const newChat = sidebar.getByRole('link', { name: 'New chat', exact: true })
  const top = (await sidebar.boundingBox())?.y ?? 0
  await expect.poll(async () => (await newChat.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(top)
  await expect(newChat).toBeInViewport()
  // What scrolls under it is hidden by it, not drawn over it.
  const box = await newChat.boundingBox()
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('a')?.textContent,
    [(box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2],
  )
  expect(onTop).toContain('New chat')
  await snap(page, '40-sidebar-sticky-new-chat')
})
