/**
 * What the e2e specs of issue 26 share: the layouts and schemes each runs in, the server with a
 * language model (the scripted OpenAI-compatible fake) and a file whose one fact an answer cites.
 */
import { expect } from '@playwright/test'

export const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 740 } },
] as const
export const SCHEMES = ['light', 'dark'] as const
export type Layout = (typeof LAYOUTS)[number]['name']

// The server with a language model (the scripted OpenAI-compatible fake), for answers that cite.
export const LLM_APP_URL = process.env.E2E_LLM_APP_URL ?? 'http://127.0.0.1:3101'
const FAKE_LLM_URL = process.env.E2E_FAKE_LLM_URL ?? 'http://127.0.0.1:4111'

/** What the fake model answers next, whatever it is asked. */
export async function scriptModel(text: string) {
  const response = await fetch(`${FAKE_LLM_URL}/__fake/reply`, {
    method: 'POST',
    body: JSON.stringify({ kind: 'text', text, tokenDelayMs: 15 }),
  })
  expect(response.status).toBe(204)
}

/** A text file over the spec's 10 KB minimum that says `fact` once, among filler about other things. */
export function factFile(name: string, fact: string) {
  const filler = Array.from(
    { length: 200 },
    (_, i) => `Section ${i} of the harbour handbook covers mooring rules, tides and opening hours.`,
  )
  filler.splice(100, 0, fact)
  return { name, mimeType: 'text/plain', buffer: Buffer.from(filler.join('\n')) }
}
