/**
 * Exporting a conversation (`GET /chat/sessions/{id}/export?format=md|pdf`): a Markdown file with
 * the title, each question and answer with its time in the reader's time zone, and the citations
 * as footnotes numbered through the whole conversation (document, page, quoted passage); the same
 * as a PDF whose text reads back; only for the owner; a clear 400 for a bad format or time zone.
 */
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import { exportModel, toMarkdown } from '#server/chat/conversation-export.ts'
import { createConversation, errorOf, indexTravelPolicy, sendOk } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'

let app: App
// One clock for the stored times and the export's own date (conventions 7).
const NOW = new Date('2026-03-14T09:26:00Z')
let clock = NOW

beforeAll(async () => {
  app = await buildTestApp({ now: () => clock })
})
afterAll(async () => {
  await app.close()
})

const { exportConversation } = sharingEndpoints

function exportOf(person: Pick<Person, 'cookie'>, id: string, query: Record<string, string>) {
  return app.inject({
    method: 'GET',
    url: `${fillPath(exportConversation.path, { id })}?${new URLSearchParams(query)}`,
    headers: { cookie: person.cookie },
  })
}

async function conversation() {
  const person = await newPerson(app, 'export')
  await indexTravelPolicy(app, person.id)
  const { _id } = await createConversation(app, person.cookie, 'Meals: "abroad"/policy')
  clock = NOW
  const first = await sendOk(app, person.cookie, _id, 'What is the daily meal allowance abroad?')
  clock = new Date(NOW.getTime() + 60_000)
  const second = await sendOk(app, person.cookie, _id, 'Which class do employees fly in?')
  return { ...person, conversationId: _id, answers: [first.aiMessage, second.aiMessage] }
}

test('the Markdown file holds the title, each turn with its time, and the citations as footnotes', async () => {
  const ada = await conversation()

  const response = await exportOf(ada, ada.conversationId, { format: 'md', timeZone: 'Europe/Paris' })

  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8')
  expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Meals abroad policy\.md"/)
  expect(response.headers['cache-control']).toBe('private, no-store')
  const markdown = response.body
  expect(markdown.startsWith('# Meals: "abroad"/policy\n')).toBe(true)
  expect(markdown).toContain('**You** · 14 Mar 2026, 10:26')
  expect(markdown).toContain('What is the daily meal allowance abroad?')
  expect(markdown).toContain('Which class do employees fly in?')
  expect(markdown).toContain('(times in Europe/Paris)')
  // Every citation of both answers is a footnote, numbered once through the file, with its quote.
  const cited = ada.answers.flatMap((a) => a.sources)
  expect(cited.length).toBeGreaterThan(1)
  cited.forEach((source, i) => {
    expect(markdown).toContain(`[^${i + 1}]: Travel policy.pdf, page ${source.page}`)
    expect(markdown).toContain(`    > ${source.quote?.split('\n')[0]}`)
  })
  const markers = markdown.match(/\[\^\d+\](?!:)/g) ?? []
  expect(new Set(markers).size).toBe(cited.length)
})

test("answer markers become the file's footnote numbers; a marker naming no passage is dropped", () => {
  const at = new Date('2026-01-02T03:04:05Z')
  const source = (citation: number, quote: string) => ({
    documentId: 'd',
    documentName: 'Plan.md',
    chunkId: `c${citation}`,
    page: null,
    link: null,
    citation,
    heading: 'Budget',
    quote,
  })
  const answer = (content: string, sources: ReturnType<typeof source>[]) => ({
    id: content,
    isUser: false,
    content,
    feedback: null,
    sources,
    corrections: [],
    stopped: false,
    createdAt: at,
    feedbackReason: null,
    feedbackNote: null,
    version: 1,
    versionCount: 1,
  })
  const model = exportModel(
    { title: 'Plan' },
    [
      answer('First [1] and [2].', [source(1, 'one'), source(2, 'two')]),
      answer('Second [1], not [7].', [source(1, 'three')]),
    ],
    { now: at },
  )

  const markdown = toMarkdown(model)

  expect(markdown).toContain('First [^1] and [^2].')
  expect(markdown).toContain('Second [^3], not .')
  expect(markdown).toContain('[^3]: Plan.md, “Budget”\n\n    > three')
})

test('the PDF says the same, and its text reads back', async () => {
  const ada = await conversation()

  const response = await exportOf(ada, ada.conversationId, { format: 'pdf' })

  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('application/pdf')
  expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".*\.pdf"/)
  const pdf = await getDocumentProxy(new Uint8Array(response.rawPayload))
  const { text } = await extractText(pdf, { mergePages: true })
  expect(text).toContain('Meals: "abroad"/policy')
  expect(text).toContain('What is the daily meal allowance abroad?')
  expect(text).toContain('Sources')
  expect(text).toContain('Travel policy.pdf, page 2')
  expect(text).toContain('(times in UTC)')
})

test("another person's conversation is a 404; a bad format or time zone a 400 that says so", async () => {
  const ada = await conversation()
  const bob = await newPerson(app, 'export-bob')

  const foreign = await exportOf(bob, ada.conversationId, { format: 'md' })
  expect([foreign.statusCode, errorOf(foreign)]).toEqual([404, 'Conversation not found'])
  const format = await exportOf(ada, ada.conversationId, { format: 'docx' })
  expect([format.statusCode, errorOf(format)]).toEqual([400, 'Choose an export format: md or pdf.'])
  const zone = await exportOf(ada, ada.conversationId, { format: 'md', timeZone: 'Mars/Olympus' })
  expect([zone.statusCode, errorOf(zone)]).toEqual([400, 'Not a valid time zone'])
})
