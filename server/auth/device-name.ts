import Bowser from 'bowser'

/** "Chrome on Linux", "Safari on iOS": what a person recognises of a browser's user agent. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const { browser, os } = Bowser.parse(userAgent)
  if (!browser.name && !os.name) return 'Unknown device'
  return `${browser.name ?? 'A browser'} on ${os.name ?? 'an unknown system'}`
}
