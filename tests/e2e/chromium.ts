import { existsSync } from 'node:fs'

/** Launch flags that work on our machines (no sandbox as root, no network chatter, no GPU). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Debian's Chromium, or the one CHROMIUM_PATH names; never a downloaded browser. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
}
