/**
 * The chat loop with a language model (the OpenAI-compatible fake, scripted per test) on the
 * second e2e server: answers stream in, Stop keeps what was written, Regenerate replaces it,
 * markdown renders, a failed first message gives the text back, a conversation has a URL, one
 * answer more than a person may have at once is refused with a sentence, and a cut answer says so.
 */
import { expect, type Page, test } from '@playwright/test'
import type { Reply } from '../fakes/openai-compatible.ts'
import { snap } from './screens.ts'
import { signUpAndIn, uniqueEmail } from './session.ts'

const APP_URL = process.env.E2E_LLM_APP_URL ?? 'http://127.0.0.1:3101'
const FAKE_URL = process.env.E2E_FAKE_LLM_URL ?? 'http://127.0.0.1:4111'

test.use({ baseURL: APP_URL })

async function script(reply: Reply) {
  const response = await fetch(`${FAKE_URL}/__fake/reply`, { method: 'POST', body: JSON.stringify(reply) })
  expect(response.status).toBe(204)
}

async function ask(page: Page, question: string) {
  const input = page.getByPlaceholder('Type your message...')
  await input.fill(question)
  await input.press('Enter')
}

const MARKDOWN = [
  '## Travel costs',
  '',
  'Meals are **45 euros** a day, taxis are reimbursed.',
  '',
  '| Item | Euros |',
  '|---|---|',
  '| Meals | 45 |',
  '| Hotel | 120 |',
  '',
  '```sh',
  'npm run expenses',
  '```',
].join('\n')

test('an answer streams in word by word, renders as markdown, regenerates, and keeps its URL, title and search', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('stream'))
  await script({ kind: 'text', text: MARKDOWN, firstTokenDelayMs: 300, tokenDelayMs: 80 })
  await ask(page, 'What do trips cost?')

  const chat = page.getByRole('main')
  const answer = chat.locator('li[data-sender="bot"]').last()
  // Part of the answer is on screen while the rest is still being written.
  await expect(answer).toHaveAttribute('data-streaming', 'true')
  await expect(answer).toContainText('Travel costs')
  await expect(chat.getByRole('button', { name: 'Stop' })).toBeVisible()
  await snap(page, '30-streaming')
  await expect(answer).toHaveAttribute('data-streaming', 'false')

  await expect(chat.getByRole('table')).toBeVisible()
  await expect(chat.getByRole('cell', { name: '120' })).toBeVisible()
  await expect(chat.locator('pre', { hasText: 'npm run expenses' })).toBeVisible()
  await expect(chat.getByRole('button', { name: 'Copy code' })).toBeVisible()
  // The copy button sits in the block's header, above the code, never drawn over it.
  const copyBox = await chat.getByRole('button', { name: 'Copy code' }).boundingBox()
  const codeBox = await chat.locator('pre', { hasText: 'npm run expenses' }).boundingBox()
  expect((copyBox?.y ?? 0) + (copyBox?.height ?? 0)).toBeLessThanOrEqual(codeBox?.y ?? 0)
  await expect(chat.getByRole('heading', { name: 'Travel costs' })).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/c\/[0-9a-f-]{36}$/)
  const url = page.url()
  await snap(page, '31-markdown-answer')

  await script({ kind: 'text', text: 'A shorter answer: 45 euros a day.', tokenDelayMs: 20 })
  await chat.getByRole('button', { name: 'Regenerate' }).click()
  await expect(chat.getByText('A shorter answer: 45 euros a day.')).toBeVisible()
  await expect(chat.getByRole('table')).toHaveCount(0)

  await chat.getByRole('button', { name: 'Rename' }).click()
  await chat.getByRole('textbox', { name: 'Conversation title' }).fill('Trip costs 2027')
  await chat.getByRole('textbox', { name: 'Conversation title' }).press('Enter')
  await expect(chat.getByRole('heading', { name: 'Trip costs 2027' })).toBeVisible()

  await page.reload()
  expect(page.url()).toBe(url)
  await expect(chat.getByRole('heading', { name: 'Trip costs 2027' })).toBeVisible()
  await expect(chat.getByText('A shorter answer: 45 euros a day.')).toBeVisible()
  await expect(chat.getByRole('table')).toHaveCount(0)
  await snap(page, '32-after-reload')

  await page.getByRole('link', { name: 'Conversation History' }).click()
  await chat.getByRole('searchbox', { name: 'Search conversations' }).fill('shorter')
  await chat.getByRole('searchbox', { name: 'Search conversations' }).press('Enter')
  const results = chat.getByRole('list', { name: 'Search results' })
  await expect(results.getByText('Trip costs 2027')).toBeVisible()
  await snap(page, '33-search')
  await results.getByText('Trip costs 2027').click()
  await expect(page).toHaveURL(url)

  // History has its own address now: Back from the conversation opened there returns to it.
  await page.goBack()
  await expect(page).toHaveURL(/\/dashboard\/history$/)
  await page.goForward()
  await expect(page).toHaveURL(url)
  await expect(chat.getByText('A shorter answer: 45 euros a day.')).toBeVisible()
})

test('Stop keeps the answer so far, marked stopped, rateable at once and still there after a reload', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('stop'))
  await script({ kind: 'stall', text: 'The first part of a long answer' })
  await ask(page, 'Tell me everything')

  const chat = page.getByRole('main')
  await expect(chat.getByText('The first part of a long answer')).toBeVisible()
  await chat.getByRole('button', { name: 'Stop' }).click()
  await expect(chat.getByText('Stopped')).toBeVisible()
  await expect(page.getByPlaceholder('Type your message...')).toBeEnabled()

  // Without a reload the stopped answer has its stored id: the rating reaches the server.
  await chat.getByRole('button', { name: 'Like', exact: true }).click()
  await expect(chat.getByRole('button', { name: 'Like', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  )

  await expect(page).toHaveURL(/\/dashboard\/c\//)
  await page.reload()
  await expect(chat.getByText('The first part of a long answer')).toBeVisible()
  await expect(chat.getByText('Stopped')).toBeVisible()
  await expect(chat.getByRole('button', { name: 'Like', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await snap(page, '34-stopped-after-reload')
})

test('a failed first message goes back into the composer and leaves no empty conversation', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('fail'))
  await script({ kind: 'status', status: 500 })
  await ask(page, 'Will this be answered?')

  const input = page.getByPlaceholder('Type your message...')
  await expect(input).toHaveValue('Will this be answered?')
  await expect(page).toHaveURL(/\/dashboard$/)
  await snap(page, '35-failed-send-draft-restored')
  await page.reload()
  await page.getByRole('link', { name: 'Conversation History' }).click()
  await expect(page.getByRole('main').getByRole('heading', { name: 'No conversations yet' })).toBeVisible()
  await script({ kind: 'text', text: 'ok' })
})

test('a [1] citation opens the passage it quotes, with its document and page', async ({ page }) => {
  test.setTimeout(90_000)
  await signUpAndIn(page, uniqueEmail('cite'))
  await page.getByRole('link', { name: 'Integrations', exact: true }).click()
  const popupOpened = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Connect Now' }).click()
  const popup = await popupOpened
  await popup.getByRole('button', { name: 'Allow' }).click()
  await expect(page.getByRole('button', { name: 'Connected' })).toBeDisabled()
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Ingest Documents' }).click()
  // The library's progress line is a status too while files are still read: find the ingest's own.
  await expect(main.getByRole('status').filter({ hasText: /ingested|added|new/i })).toBeVisible({
    timeout: 60_000,
  })

  await page.getByRole('link', { name: 'Chat with Docs' }).click()
  await script({
    kind: 'text',
    text: 'The launch code is in the project brief [1]. Nothing else says so [42].',
  })
  await ask(page, 'What is the Zephyr project launch code?')
  await main.getByRole('button', { name: 'Show passage 1' }).click()
  const passage = main.getByRole('region', { name: /^Passage 1 from / })
  await expect(passage.locator('blockquote')).not.toBeEmpty()
  await expect(passage).toContainText('AURORA-7731')
  // Page and section: the brief's outline names page 2's section.
  await expect(passage).toContainText('zephyr-project-brief.pdf · p. 2 · Page 2: Launch')
  await expect(passage.getByRole('link', { name: /^Open / })).toHaveAttribute('rel', 'noopener noreferrer')
  await expect(main.getByText('[42]')).toHaveCount(0)
  await snap(page, '36-citation-passage')
})

test('refused for too many answers at once, I read why above the composer; an answer cut at its limit says so', async ({
  page,
}) => {
  await signUpAndIn(page, uniqueEmail('ceiling'))
  // Two answers being written elsewhere (another tab, say), each past its first word: the server
  // allows two at once (D84).
  await script({ kind: 'text', text: 'word '.repeat(200), tokenDelayMs: 500 })
  const elsewhere = await page.evaluate(async () => {
    const post = (path: string, body: unknown, signal?: AbortSignal) =>
      fetch(`/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      })
    const stop = new AbortController()
    Object.assign(window, { stopElsewhere: () => stop.abort() })
    const ids: string[] = []
    for (const title of ['Elsewhere one', 'Elsewhere two']) {
      const created = (await (await post('/chat/sessions/create', { title })).json()) as {
        data: { _id: string }
      }
      ids.push(created.data._id)
      const streamed = await post(
        `/chat/sessions/${created.data._id}/messages/stream`,
        { content: 'Tell me everything', isUser: true, messageType: 'text' },
        stop.signal,
      )
      const reader = streamed.body?.pipeThrough(new TextDecoderStream()).getReader()
      let seen = ''
      while (reader && !seen.includes('event: token')) seen += (await reader.read()).value ?? ''
      void (async () => {
        while (reader && !(await reader.read()).done);
      })().catch(() => null)
    }
    return ids
  })

  const chat = page.getByRole('main')
  const input = page.getByPlaceholder('Type your message...')
  await ask(page, 'What is the meal allowance?')
  await expect(chat.getByRole('alert')).toHaveText(
    'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.',
  )
  await expect(input).toHaveValue('What is the meal allowance?')
  await expect(input).toBeEnabled()
  await expect(chat.locator('li[data-sender="user"]')).toHaveCount(0)
  await snap(page, '37-too-many-answers')

  // Those answers are stopped (and stored, which frees their places); the same text sent again
  // is answered, here cut at the model's token limit, and the notice goes.
  await page.evaluate(() => (window as unknown as { stopElsewhere: () => void }).stopElsewhere())
  for (const id of elsewhere) {
    await expect
      .poll(async () => {
        const response = await page.request.get(`/api/v1/chat/sessions/${id}/messages`)
        return ((await response.json()) as { data: unknown[] }).data.length
      })
      .toBe(2)
  }
  await script({ kind: 'text', text: 'Meals are 45 euros a day, and', finish: 'length' })
  await input.press('Enter')
  const answer = chat.locator('li[data-sender="bot"]').last()
  await expect(answer).toContainText('Meals are 45 euros a day, and')
  await expect(answer.locator('em')).toHaveText(
    'This answer was cut short: it reached the longest answer allowed here. Ask for the rest, or for a shorter answer.',
  )
  await expect(chat.getByRole('alert')).toHaveCount(0)
  await snap(page, '38-answer-cut-short')
})
