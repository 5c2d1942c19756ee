/**
 * The everyday UI of issue 26 (D86–), each capability at a desktop's 1280 px and a phone's 375 px,
 * in the light and the dark scheme, with a screenshot of each to look at: New chat and the
 * conversations beside the chat; a file attached in a new chat before its first message and
 * cited by the answer, its passage beside the answer, by keyboard; the documents table; History
 * filtered as typed; the phone's menu drawer.
 */
import { expect, type Page, test } from '@playwright/test'
import { documentRow } from './documents-table.ts'
import { factFile, LAYOUTS, type Layout, LLM_APP_URL, SCHEMES, scriptModel } from './model.ts'
import { snap } from './screens.ts'
import { connectDrive, signUpAndIn, uniqueEmail } from './session.ts'

type Shot = (name: string) => Promise<void>

/**
 * Each test once per layout and scheme, the page sized and coloured before it starts; `withModel`
 * runs it against the server with a language model (the scripted fake).
 */
function eachLayout(
  title: string,
  body: (page: Page, layout: Layout, shot: Shot) => Promise<void>,
  options: { withModel?: boolean } = {},
) {
  for (const { name, viewport } of LAYOUTS) {
    for (const scheme of SCHEMES) {
      test(`${title} (${name}, ${scheme})`, async ({ page, browser }) => {
        test.setTimeout(60_000)
        if (options.withModel) page = await (await browser.newContext({ baseURL: LLM_APP_URL })).newPage()
        await page.setViewportSize(viewport)
        await page.emulateMedia({ colorScheme: scheme })
        await body(page, name, (shot) => snap(page, `26-${shot}-${name}-${scheme}`))
      })
    }
  }
}

async function ask(page: Page, question: string) {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
  await expect(page.getByRole('main').getByRole('log').getByText(question, { exact: true })).toBeVisible()
}

/** The sidebar (sections and extras): always shown on a desktop, in the menu drawer on a phone. */
async function showSidebar(page: Page, layout: Layout) {
  const menu = page.getByRole('button', { name: 'Menu' })
  if (layout === 'phone' && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click()
}

eachLayout('New chat and my recent conversations sit beside the chat', async (page, layout, shot) => {
  await signUpAndIn(page, uniqueEmail(`layout-${layout}`))
  const main = page.getByRole('main')
  await ask(page, 'First question about the budget')
  await expect(main.getByText(/No language model is configured/)).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/c\//)
  const first = page.url()

  await page.getByRole('link', { name: 'New chat' }).click()
  await expect(page).toHaveURL(/\/dashboard\/chat$/)
  await expect(main.getByText('Start a conversation')).toBeVisible()
  await ask(page, 'Second question about travel')
  await expect(page).toHaveURL(/\/dashboard\/c\//)

  await showSidebar(page, layout)
  const recent = page.getByRole('region', { name: 'Recent Conversations' })
  await expect(recent.getByRole('link')).toHaveCount(2)
  await expect(recent.getByRole('link', { name: /Second question/ })).toHaveAttribute('aria-current', 'page')
  await shot('recent-beside-chat')

  await recent.getByRole('link', { name: /First question/ }).click()
  await expect(page).toHaveURL(first)
  await expect(main.getByRole('log').getByText('First question about the budget')).toBeVisible()
  await showSidebar(page, layout)
  await expect(recent.getByRole('link', { name: /First question/ })).toHaveAttribute('aria-current', 'page')
})

eachLayout(
  'a file attached in a new chat before the first message is cited; its passage opens and closes by keyboard',
  async (page, layout, shot) => {
    await signUpAndIn(page, uniqueEmail(`cite-${layout}`))
    const main = page.getByRole('main')
    await main.getByRole('button', { name: 'Attach file' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upload File' })
    await expect(dialog.getByText(/^Upload attaches the file to your first message/)).toBeVisible()
    await dialog
      .getByLabel('File to upload')
      .setInputFiles(
        factFile(
          'harbour-handbook.txt',
          'The harbour master keeps the buoy code PELICAN-6620 in the tide office.',
        ),
      )
    await shot('attach-dialog')
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
    await expect(dialog).toHaveCount(0)
    await expect(main.getByRole('button', { name: 'Remove harbour-handbook.txt' })).toBeVisible()
    await shot('attach-chip')

    await scriptModel('The buoy code is PELICAN-6620, kept in the tide office [1].')
    await ask(page, 'What is the buoy code of the harbour?')
    const marker = main.getByRole('button', { name: 'Show passage 1' })
    await expect(marker).toBeVisible({ timeout: 30_000 })
    await expect(main.locator('li[data-streaming="true"]')).toHaveCount(0)
    await expect(page).toHaveURL(/\/dashboard\/c\//)
    await expect(main.getByRole('list', { name: 'Files in this conversation' })).toContainText(
      'harbour-handbook.txt',
    )
    await expect(main.getByRole('button', { name: /^Remove / })).toHaveCount(0)

    await marker.focus()
    await page.keyboard.press('Enter')
    const panel = main.getByRole('region', { name: 'Passage 1 from harbour-handbook.txt' })
    await expect(panel).toBeFocused()
    await expect(panel.locator('mark')).toContainText('PELICAN-6620')
    await expect(panel).toBeInViewport()
    await shot('citation-panel')

    await page.keyboard.press('Escape')
    await expect(panel).toHaveCount(0)
    await expect(marker).toBeFocused()

    await page.keyboard.press('Enter')
    await expect(panel).toBeFocused()
    await panel.getByRole('button', { name: 'Close' }).click()
    await expect(panel).toHaveCount(0)
    await expect(marker).toBeFocused()
  },
  { withModel: true },
)

eachLayout(
  'the documents table: one call to action first, then searched, filtered and sorted',
  async (page, layout, shot) => {
    test.setTimeout(120_000)
    await signUpAndIn(page, uniqueEmail(`table-${layout}`))
    // First run, nothing read yet: the empty chat says so and where to add documents.
    await expect(page.getByRole('main').getByText(/No documents are ready yet/)).toBeVisible()
    await expect(page.getByRole('main').getByRole('link', { name: 'Connect Google Drive' })).toBeVisible()
    await connectDrive(page)
    await page.goto('/dashboard/docs')
    const main = page.getByRole('main')
    const table = main.getByRole('table', { name: 'Documents' })
    await expect(main.getByRole('heading', { name: 'Your library is empty' })).toBeVisible()
    await expect(documentRow(page, 'zephyr-project-brief.pdf')).toContainText('Not in library')
    await expect(main.getByText('application/vnd.google-apps')).toHaveCount(0)
    await shot('documents-before-ingest')

    await main.getByRole('button', { name: 'Ingest Documents' }).click()
    await expect(documentRow(page, 'broken-scan.pdf')).toContainText(
      'Failed: the file is not a readable PDF',
      {
        timeout: 60_000,
      },
    )
    await expect(main.getByRole('heading', { name: 'Your library is empty' })).toHaveCount(0)
    await expect(documentRow(page, 'Budget 2027')).toContainText('Google Sheet')
    await expect(documentRow(page, 'Budget 2027')).toHaveCount(1)

    // Search as typed.
    const search = main.getByRole('searchbox', { name: 'Search documents' })
    await search.fill('zeph')
    await expect(table.locator('tbody tr')).toHaveCount(1)
    await expect(documentRow(page, 'zephyr-project-brief.pdf')).toContainText('Ready')
    await search.fill('')

    // Filter by status: only the failed ones, each with its reason and Retry.
    await main.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Failed' })
    await expect(documentRow(page, 'broken-scan.pdf')).toBeVisible()
    await expect(documentRow(page, 'locked-contract.pdf')).toContainText('password-protected')
    await expect(documentRow(page, 'zephyr-project-brief.pdf')).toHaveCount(0)
    await expect(documentRow(page, 'broken-scan.pdf').getByRole('button', { name: 'Retry' })).toBeVisible()
    await shot('documents-failed-filter')
    await main.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'All statuses' })

    // Sort by name, case-insensitively: "broken-scan.pdf" before "Budget 2027".
    if (layout === 'desktop') await table.getByRole('button', { name: 'Name' }).click()
    else await main.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Name, A to Z' })
    const names = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('td > span')?.textContent ?? ''))
    expect(names.indexOf('broken-scan.pdf')).toBeLessThan(names.indexOf('Budget 2027'))
    expect(names).toEqual(
      [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true })),
    )
    await expect(page.locator('html')).not.toHaveCSS('overflow-x', 'scroll')
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0)
    await shot('documents-table')

    // Delete sits behind the row's menu and asks first.
    await documentRow(page, 'notes.txt').getByRole('button', { name: 'More actions for notes.txt' }).click()
    await documentRow(page, 'notes.txt').getByRole('menuitem', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete document' })
    await expect(confirm).toContainText('Delete “notes.txt” from your library?')
    await shot('documents-delete-confirm')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(documentRow(page, 'notes.txt')).toContainText('Ready')

    // Back in a new chat: how many documents are ready, and three questions from their headings.
    await page.getByRole('link', { name: 'New chat' }).click()
    await expect(main.getByText(/^\d+ documents are ready to ask about\.$/)).toBeVisible()
    const starters = main.getByRole('list', { name: 'Starter questions' })
    await expect(starters.getByRole('button')).toHaveCount(3)
    await shot('first-run')
    const question = (await starters.getByRole('button').first().textContent()) ?? ''
    expect(question).toMatch(/^What does .+ say about “.+”\?$/)
    await starters.getByRole('button').first().click()
    await expect(main.getByRole('log').getByText(question, { exact: true })).toBeVisible()
  },
)

eachLayout('History is filtered as I type, the words marked', async (page, layout, shot) => {
  await signUpAndIn(page, uniqueEmail(`history-${layout}`))
  await ask(page, 'What is the budget for the harbour?')
  await page.getByRole('link', { name: 'New chat' }).click()
  await ask(page, 'Plan the trip to Lisbon')
  await page.goto('/dashboard/history')
  const main = page.getByRole('main')
  await expect(main.getByText('Plan the trip to Lisbon')).toBeVisible()

  await main.getByRole('searchbox', { name: 'Search conversations' }).pressSequentially('budg', { delay: 40 })

  const results = main.getByRole('list', { name: 'Search results' })
  await expect(results.getByRole('button')).toHaveCount(1)
  await expect(results.getByRole('button')).toContainText('budget for the harbour')
  await expect(results.locator('mark').first()).toHaveText(/budg/i)
  // Only the matches: the other conversation is not listed below them.
  await expect(main.getByText('Plan the trip to Lisbon')).toHaveCount(0)
  await shot('history-filtered')

  await main.getByRole('button', { name: 'Clear' }).click()
  await expect(main.getByText('Plan the trip to Lisbon')).toBeVisible()
})

eachLayout('the sections: a column on a desktop, a menu drawer on a phone', async (page, layout, shot) => {
  await signUpAndIn(page, uniqueEmail(`drawer-${layout}`))
  const menu = page.getByRole('button', { name: 'Menu' })
  const documents = page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', {
    name: 'Documents',
  })
  if (layout === 'desktop') {
    await expect(menu).toBeHidden()
    await expect(documents).toBeVisible()
    return
  }
  // No sideways strip of clipped labels: the sections wait in the drawer.
  await expect(documents).toBeHidden()
  await expect(page.getByRole('link', { name: 'New chat' })).toBeVisible()
  await menu.click()
  await expect(documents).toBeInViewport({ ratio: 1 })
  await expect(page.getByRole('link', { name: 'Chat with Docs' })).toBeFocused()
  const sections = page.getByRole('navigation', { name: 'Dashboard sections' })
  for (const label of ['Chat with Docs', 'Documents', 'Integrations', 'Conversation History', 'Settings'])
    await expect(sections.getByRole('link', { name: label, exact: true })).toBeInViewport({ ratio: 1 })
  await shot('menu-drawer')
  await page.keyboard.press('Escape')
  await expect(documents).toBeHidden()
  await expect(menu).toBeFocused()

  await menu.click()
  await documents.click()
  await expect(page).toHaveURL(/\/dashboard\/docs$/)
  await expect(documents).toBeHidden()
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible()
})
