/**
 * Time to first token, as a person sees it: real Chromium, the built app, the real server; from
 * the Enter key to the first piece of the answer painted on screen. With a model (the
 * OpenAI-compatible fake, streaming its first token after a fixed delay D) the target is
 * p95 <= D + 50 ms; with no model configured (the extractive answer) the figure is reported.
 * Usage: npm run bench:stream   (build first: npm run build)
 *   BENCH_ROUNDS (20), BENCH_FIRST_TOKEN_MS (D, 300)
 */
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts'
import { startFakeLlm } from '../tests/fakes/openai-compatible.ts'
import { startApp } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const WARMUP = 2
const D = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 300)
const PASSWORD = 'bench-password'

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

async function signIn(page: Page, url: string) {
  const email = `stream-bench-${Date.now()}@example.com`
  const reg = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, confirmPassword: PASSWORD }),
  })
  if (reg.status !== 201) throw new Error(`register answered ${reg.status}`)
  await page.goto(`${url}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(/\/dashboard$/)
}

type Timing = { ownMessage: number; firstToken: number }

/**
 * Enter → the new answer's first text painted (a frame after the DOM has it), in ms; and, as the
 * baseline measured in the same round, Enter → my own message painted (no server involved).
 */
async function firstToken(page: Page, question: string): Promise<Timing> {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  const measured = page.evaluate(
    () =>
      new Promise<{ ownMessage: number; firstToken: number }>((resolve) => {
        let pressed = 0
        let own = 0
        const field = document.querySelector('textarea[aria-label="Message"]')
        field?.addEventListener(
          'keydown',
          (e) => {
            if ((e as KeyboardEvent).key === 'Enter') pressed = performance.now()
          },
          { capture: true, once: true },
        )
        const before = document.querySelectorAll('li[data-sender="bot"]').length
        const mine = document.querySelectorAll('li[data-sender="user"]').length
        const observer = new MutationObserver(() => {
          if (own === 0 && pressed > 0 && document.querySelectorAll('li[data-sender="user"]').length > mine) {
            own = -1
            requestAnimationFrame(() => {
              own = performance.now() - pressed
            })
          }
          const bots = document.querySelectorAll('li[data-sender="bot"]')
          const last = bots[bots.length - 1]
          if (pressed > 0 && bots.length > before && (last?.textContent ?? '').trim() !== '') {
            observer.disconnect()
            requestAnimationFrame(() => resolve({ ownMessage: own, firstToken: performance.now() - pressed }))
          }
        })
        observer.observe(document.body, { childList: true, subtree: true, characterData: true })
      }),
  )
  await input.press('Enter')
  const ms = await measured
  await page.waitForFunction(() => {
    const field = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
    return field !== null && !field.disabled && !document.querySelector('li[data-streaming="true"]')
  })
  return ms
}

async function run(label: string, url: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    await signIn(page, url)
    const times: number[] = []
    const own: number[] = []
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      const t = await firstToken(page, `Question ${i}: what is the meal allowance?`)
      if (i >= WARMUP) {
        times.push(t.firstToken)
        own.push(t.ownMessage)
      }
    }
    const sorted = [...times].sort((a, b) => a - b)
    const ownSorted = [...own].sort((a, b) => a - b)
    console.log(
      `${label}: n=${sorted.length} first token median ${percentile(sorted, 50).toFixed(0)} ms, ` +
        `p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms; ` +
        `baseline (own message painted) median ${percentile(ownSorted, 50).toFixed(0)} ms, ` +
        `p95 ${percentile(ownSorted, 95).toFixed(0)} ms`,
    )
    return sorted
  } finally {
    await browser.close()
  }
}

const fake = await startFakeLlm({ port: Number(process.env.BENCH_FAKE_LLM_PORT ?? 3206) })
fake.reply({
  kind: 'text',
  text: 'The meal allowance is 45 euros a day, paid with the monthly salary.',
  firstTokenDelayMs: D,
  tokenDelayMs: 5,
})
const withModel = await startApp(Number(process.env.BENCH_PORT ?? 3204), {
  LLM_BASE_URL: fake.baseUrl,
  LLM_MODEL: 'fake-model',
})
const noModel = await startApp(Number(process.env.BENCH_PORT_NO_MODEL ?? 3205))
try {
  const sorted = await run(`model, first token after D=${D} ms`, withModel.url)
  const p95 = percentile(sorted, 95)
  console.log(
    `  p95 - D = ${(p95 - D).toFixed(0)} ms (target <= 50 ms): ${p95 - D <= 50 ? 'met' : 'NOT met'}`,
  )
  await run('no model (extractive answer)', noModel.url)
} finally {
  await withModel.stop()
  await noModel.stop()
  await fake.close()
}
