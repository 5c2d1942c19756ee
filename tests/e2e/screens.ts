import path from 'node:path'
import type { Page } from '@playwright/test'

/** Screenshots land in a git-ignored folder, to be opened and looked at after a run. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, 'screenshots')

export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
}
