/**
 * Bounded documents (server/documents/reading/document-bounds.ts, D90): however a file packs its text, a
 * document holds at most MAX_DOCUMENT_CHARS of text and MAX_DOCUMENT_PASSAGES passages; past
 * either it keeps its beginning and the library says why ("Ready: only its first …"). The attack
 * run's case: a PDF of a few hundred KB whose one page holds megabytes of tiny text in one Flate
 * stream became tens of thousands of passages.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import {
  boundedPassages,
  CUT_REASONS,
  MAX_DOCUMENT_CHARS,
  MAX_DOCUMENT_PASSAGES,
} from '#server/documents/reading/document-bounds.ts'
import { createConversation } from '../support/chat-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { tinyTextPdf } from '../support/tiny-text-pdf.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

const total = (texts: readonly { text: string }[]) => texts.reduce((sum, t) => sum + t.text.length, 0)

test('text past the ceiling is cut, whichever section crosses it, and says so', () => {
  const page = 'A line of an ordinary page.\n'.repeat(40_000) // ~1.1 MB a page
  const sections = Array.from({ length: 8 }, (_, i) => ({ text: page, page: i + 1 }))

  const { chunks, cut, pages } = boundedPassages(sections, { markdown: false })

  expect(cut).toBe(CUT_REASONS.text)
  expect(pages).toBe(5)
  expect(total(chunks)).toBeLessThanOrEqual(MAX_DOCUMENT_CHARS)
  expect(total(chunks)).toBeGreaterThan(MAX_DOCUMENT_CHARS * 0.95)
  expect(chunks.at(-1)?.page).toBe(5)

  const whole = boundedPassages(sections.slice(0, 4), { markdown: false })
  expect(whole.cut).toBeNull()
  expect(whole.pages).toBe(4)
})

test('text that cannot be merged into passages (a heading a line) stops at the passage ceiling', () => {
  const text = Array.from({ length: 20_000 }, (_, i) => `# Heading ${i}\nword`).join('\n')

  const { chunks, cut } = boundedPassages([{ text, page: null }], { markdown: true })

  expect(text.length).toBeLessThan(MAX_DOCUMENT_CHARS)
  expect(chunks).toHaveLength(MAX_DOCUMENT_PASSAGES)
  expect(cut).toBe(CUT_REASONS.passages)
  expect(chunks[0]?.heading).toBe('Heading 0')
})

test('a small PDF holding 12 MB of tiny text is read up to the ceiling, and the library says it was cut', async () => {
  const ada = await newPerson(app, 'bounded')
  const conversation = await createConversation(app, ada.cookie, 'Tiny text')
  const bytes = await tinyTextPdf(12)
  expect(bytes.length).toBeLessThan(512 * 1024)

  const document = await app.library.upload(
    ada.id,
    conversation._id,
    { name: 'tiny-text.pdf', mimeType: 'application/pdf', bytes },
    100_000,
  )

  expect(document).toMatchObject({ status: 'ready', pages: 1, reason: CUT_REASONS.text })
  // Unbounded, the same file read ~15,000 passages.
  expect(document.chunks).toBeGreaterThan(MAX_DOCUMENT_CHARS / 1200)
  expect(document.chunks).toBeLessThanOrEqual(MAX_DOCUMENT_PASSAGES)
  const found = await createRetriever(app.db)(ada.id, 'tiny text of a hostile file', 3)
  expect(found[0]?.documentName).toBe('tiny-text.pdf')
}, 120_000)
