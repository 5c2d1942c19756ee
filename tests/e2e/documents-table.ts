import type { Locator, Page } from '@playwright/test'

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The Documents table's row for a file: a row is named by its cells, the file's name first. */
export function documentRow(page: Page, name: string): Locator {
  return page
    .getByRole('main')
    .getByRole('table', { name: 'Documents' })
    .getByRole('row', { name: new RegExp(`^${escaped(name)} `) })
}

/** Deletes a document from the library: its row's menu, Delete, then the confirmation. */
export async function deleteDocument(page: Page, name: string): Promise<void> {
  const row = documentRow(page, name)
  await row.getByRole('button', { name: `More actions for ${name}` }).click()
  await row.getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('dialog', { name: 'Delete document' }).getByRole('button', { name: 'Delete' }).click()
}
