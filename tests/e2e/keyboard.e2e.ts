/**
 * Keyboard only, in real Chromium: the menus (a document's "More actions", the conversation's
 * Export), the dialogs (Share, Delete document), the `#` picker and Dislike, with the focus where
 * a person expects it (issue 35, D107). The primitives are Ark UI's; these tests hold what they
 * promise: arrow keys and typeahead in menus, Escape closing and giving the focus back to what
 * opened it, a dialog keeping the Tab key inside itself.
 */
import { expect, type Locator, type Page, test } from '@playwright/test'
import { documentRow } from './documents-table.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 812 } },
] as const

/** A text file over the spec's 10 KB minimum that says `fact` among filler sentences. */
function textFile(fact: string): Buffer {
  let text = `${fact}\n\n`
  while (text.length < 11 * 1024) text += 'The committee reviewed the quarterly figures in detail. '
  return Buffer.from(text)
}

/** A new person with one conversation about an uploaded note, answered, open at its address. */
async function answeredConversation(page: Page, label: string): Promise<void> {
  await signUpAndIn(page, uniqueEmail(label))
  const created = await page.request.post('/api/v1/chat/sessions/create', { data: { title: 'Harbour' } })
  const id = (await created.json()).data._id as string
  const uploaded = await page.request.post(`/api/v1/chat/sessions/${id}/files/upload`, {
    multipart: {
      file: {
        name: 'harbour-notes.txt',
        mimeType: 'text/plain',
        buffer: textFile('The buoy code is OSPREY-1180.'),
      },
    },
  })
  expect(uploaded.status()).toBe(201)
  await page.goto(`/dashboard/c/${id}`)
  const input = page.getByPlaceholder('Type your message...')
  await input.fill('What is the buoy code?')
  await input.press('Enter')
  await expect(page.getByRole('main').getByText('Sources:').last()).toBeVisible({ timeout: 30_000 })
}

/** Ark's menus keep the focus on the menu and point at the item (aria-activedescendant). */
async function expectHighlighted(menu: Locator, item: Locator): Promise<void> {
  await expect(menu).toBeFocused()
  await expect(item).toHaveAttribute('data-highlighted', '')
  expect(await menu.getAttribute('aria-activedescendant')).toBe(await item.getAttribute('id'))
}

/** Focuses `target` as the Tab key would have, then presses `key` on it. */
async function press(target: Locator, key: string): Promise<void> {
  await target.focus()
  await target.press(key)
}

/** The wide layout's Export menu and Share dialog, by keyboard. */
async function exportAndShareByKeys(page: Page, name: string): Promise<void> {
  const main = page.getByRole('main')
  // Export: Enter opens the menu on its first item; the arrow keys move; Escape gives the focus back.
  const exportButton = main.getByRole('button', { name: 'Export' })
  await press(exportButton, 'Enter')
  const exportMenu = page.getByRole('menu', { name: 'Export the conversation' })
  await expect(exportMenu).toBeVisible()
  await expectHighlighted(exportMenu, exportMenu.getByRole('menuitem', { name: 'Markdown (.md)' }))
  await page.keyboard.press('ArrowDown')
  await expectHighlighted(exportMenu, exportMenu.getByRole('menuitem', { name: 'PDF (.pdf)' }))
  await snap(page, `keys-${name}-export-menu`)
  await page.keyboard.press('Escape')
  await expect(exportMenu).toBeHidden()
  await expect(exportButton).toBeFocused()
  // Enter on an item downloads it; the menu closes and the focus is back on Export.
  await page.keyboard.press('ArrowDown')
  await expectHighlighted(exportMenu, exportMenu.getByRole('menuitem', { name: 'Markdown (.md)' }))
  const downloading = page.waitForEvent('download')
  await page.keyboard.press('Enter')
  expect((await downloading).suggestedFilename()).toBe('Harbour.md')
  await expect(exportMenu).toBeHidden()
  await expect(exportButton).toBeFocused()

  // Share: a dialog that keeps Tab inside it; Escape closes it and the focus is back on Share.
  const shareButton = main.getByRole('button', { name: 'Share' })
  await press(shareButton, 'Enter')
  const dialog = page.getByRole('dialog', { name: 'Share this conversation' })
  await expect(dialog).toBeVisible()
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await page.keyboard.press('Shift+Tab')
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  await snap(page, `keys-${name}-share-dialog`)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(shareButton).toBeFocused()
}

/** On a phone the same entries sit in one "Conversation options" menu (D136), by keyboard. */
async function phoneOptionsByKeys(page: Page, name: string): Promise<void> {
  const options = page.getByRole('main').getByRole('button', { name: 'Conversation options' })
  await press(options, 'Enter')
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  await expectHighlighted(menu, menu.getByRole('menuitem', { name: 'Rename' }))
  await page.keyboard.press('ArrowDown')
  await expectHighlighted(menu, menu.getByRole('menuitem', { name: 'Export as Markdown (.md)' }))
  await snap(page, `keys-${name}-options-menu`)
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(options).toBeFocused()
  // Enter on an item downloads it; the menu closes and the focus is back on the options button.
  await press(options, 'Enter')
  await page.keyboard.press('ArrowDown')
  const downloading = page.waitForEvent('download')
  await page.keyboard.press('Enter')
  expect((await downloading).suggestedFilename()).toBe('Harbour.md')
  await expect(menu).toBeHidden()
  await expect(options).toBeFocused()

  // Share from the menu: a dialog that keeps Tab inside it; Escape closes it.
  await press(options, 'Enter')
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown')
  await expectHighlighted(menu, menu.getByRole('menuitem', { name: 'Share' }))
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Share this conversation' })
  await expect(dialog).toBeVisible()
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await snap(page, `keys-${name}-share-dialog`)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(options).toBeFocused()
}

for (const { name, viewport } of LAYOUTS) {
  test(`${name}: Export menu, Share dialog, Dislike and New chat by keyboard`, async ({ page }) => {
    test.setTimeout(90_000)
    await page.setViewportSize(viewport)
    await answeredConversation(page, `keys-chat-${name}`)
    const main = page.getByRole('main')

    if (name === 'phone') await phoneOptionsByKeys(page, name)
    else await exportAndShareByKeys(page, name)

    // Dislike: the focus goes into the question why (never to the page), and back to Dislike.
    const answer = main.locator('li[data-sender="bot"]').last()
    const dislike = answer.getByRole('button', { name: 'Dislike' })
    await press(dislike, 'Enter')
    const form = main.getByRole('form', { name: 'Why this answer did not help' })
    await expect(form).toBeVisible()
    await expect(form.getByRole('radio', { name: 'Not correct' })).toBeFocused()
    await snap(page, `keys-${name}-dislike-reason`)
    await page.keyboard.press('Escape')
    await expect(form).toHaveCount(0)
    await expect(dislike).toBeFocused()

    // New chat: the focus is in the message box, ready to type.
    await press(page.getByRole('link', { name: 'New chat' }), 'Enter')
    await expect(page).toHaveURL(/\/dashboard\/chat$/)
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()

    // The `#` picker: typing # offers the documents, the arrows move, Enter makes one a chip.
    await page.keyboard.type('Where #')
    const picker = main.getByRole('listbox', { name: 'Documents to search' })
    await expect(picker.getByRole('option', { name: 'harbour-notes.txt' })).toBeVisible()
    await page.keyboard.press('ArrowDown')
    await expect(picker.getByRole('option', { selected: true })).toHaveText('harbour-notes.txt')
    await snap(page, `keys-${name}-hash-picker`)
    await page.keyboard.press('Enter')
    await expect(picker).toHaveCount(0)
    await expect(main.getByRole('list', { name: 'Documents this chat searches' })).toContainText(
      'harbour-notes.txt',
    )
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Where ')
  })

  test(`${name}: a document's More actions menu and the Delete dialog by keyboard`, async ({ page }) => {
    test.setTimeout(90_000)
    await page.setViewportSize(viewport)
    await answeredConversation(page, `keys-docs-${name}`)
    await page.goto('/dashboard/docs')
    const row = documentRow(page, 'harbour-notes.txt')
    await expect(row).toContainText('Ready')
    const more = row.getByRole('button', { name: 'More actions for harbour-notes.txt' })

    // Enter opens the menu on its first item; arrows, typeahead; Escape gives the focus back.
    await press(more, 'Enter')
    const menu = page.getByRole('menu', { name: 'Actions for harbour-notes.txt' })
    const ask = menu.getByRole('menuitem', { name: 'Ask about this document' })
    const remove = menu.getByRole('menuitem', { name: 'Delete' })
    await expectHighlighted(menu, ask)
    await page.keyboard.press('ArrowDown')
    await expectHighlighted(menu, remove)
    await page.keyboard.press('ArrowDown')
    await expectHighlighted(menu, ask)
    await page.keyboard.press('d')
    await expectHighlighted(menu, remove)
    await snap(page, `keys-${name}-row-menu`)
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(more).toBeFocused()

    // Delete asks first, in a dialog that holds the focus; Escape closes it, back on More actions.
    await page.keyboard.press('ArrowDown')
    await expectHighlighted(menu, ask)
    await page.keyboard.press('End')
    await expectHighlighted(menu, remove)
    await page.keyboard.press('Enter')
    const confirm = page.getByRole('dialog', { name: 'Delete document' })
    await expect(confirm).toBeVisible()
    expect(await confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true)
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab')
      expect(await confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true)
    }
    await snap(page, `keys-${name}-delete-dialog`)
    await page.keyboard.press('Escape')
    await expect(confirm).toBeHidden()
    await expect(more).toBeFocused()
    await expect(row).toContainText('Ready')
  })
}

for (const { name, viewport } of LAYOUTS) {
  // By mouse, to look at: each menu and dialog open, at both widths.
  test(`${name}: the menus and dialogs, open, as they look`, async ({ page }) => {
    test.setTimeout(90_000)
    await page.setViewportSize(viewport)
    await answeredConversation(page, `looks-${name}`)
    const main = page.getByRole('main')
    // On a phone Export and Share sit in the conversation's options menu (D136).
    const opener = name === 'phone' ? 'Conversation options' : 'Export'
    await main.getByRole('button', { name: opener }).click()
    await expect(page.getByText(/PDF \(\.pdf\)/)).toBeVisible()
    await snap(page, `looks-${name}-export-menu`)
    await page.keyboard.press('Escape')
    if (name === 'phone') {
      await main.getByRole('button', { name: opener }).click()
      await page.getByRole('menuitem', { name: 'Share' }).click()
    } else await main.getByRole('button', { name: 'Share' }).click()
    await expect(page.getByRole('dialog', { name: 'Share this conversation' })).toBeVisible()
    await snap(page, `looks-${name}-share-dialog`)
    await page.keyboard.press('Escape')
    await main.getByRole('button', { name: 'Dislike' }).last().click()
    await expect(main.getByRole('form', { name: 'Why this answer did not help' })).toBeVisible()
    await snap(page, `looks-${name}-dislike-reason`)
    await page.getByPlaceholder('Type your message...').fill('Where #')
    await page.getByPlaceholder('Type your message...').press('r')
    await expect(main.getByRole('listbox', { name: 'Documents to search' })).toBeVisible()
    await snap(page, `looks-${name}-hash-picker`)
    await page.goto('/dashboard/docs')
    const row = documentRow(page, 'harbour-notes.txt')
    await expect(row).toContainText('Ready')
    await row.getByRole('button', { name: 'More actions for harbour-notes.txt' }).click()
    await expect(page.getByText('Ask about this document')).toBeVisible()
    await snap(page, `looks-${name}-row-menu`)
    await page.getByText('Delete', { exact: true }).click()
    await expect(page.getByRole('dialog', { name: 'Delete document' })).toBeVisible()
    await snap(page, `looks-${name}-delete-dialog`)
  })
}
