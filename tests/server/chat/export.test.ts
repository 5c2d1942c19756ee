/**
 * Exporting a conversation (`GET /chat/sessions/{id}/export?format=md|pdf`): a Markdown file with
 * the title, each question and answer with its time in the reader's time zone, and the citations
 * as footnotes numbered through the whole conversation (document, page, quoted passage); the same
 * as a PDF whose text reads back; only for the owner; a clear 400 for a bad format or time zone.
 */
import type { Nodes } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import { exportModel, toMarkdown } from '#server/chat/conversation-export.ts'
import { toPdf } from '#server/chat/conversation-pdf.ts'
import type { StoredCheck } from '#server/db/schema.ts'
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

const AT = new Date('2026-01-02T03:04:05Z')

function source(citation: number, quote: string, documentName = 'Plan.md', heading = 'Budget') {
  return {
    documentId: 'd',
    documentName,
    chunkId: `c${citation}`,
    page: null,
    link: null,
    citation,
    heading,
    quote,
  }
}

function message(
  content: string,
  sources: ReturnType<typeof source>[] = [],
  isUser = false,
  checks: StoredCheck[] | null = null,
) {
  return {
    id: content,
    isUser,
    content,
    feedback: null,
    sources,
    corrections: [],
    checks,
    stopped: false,
    createdAt: AT,
    feedbackReason: null,
    feedbackNote: null,
    version: 1,
    versionCount: 1,
  }
}

test("answer markers become the file's footnote numbers; a marker naming no passage is dropped", async () => {
  const model = exportModel(
    { title: 'Plan' },
    [
      message('First [1] and [2].', [source(1, 'one'), source(2, 'two')]),
      message('Second [1], not [7].', [source(1, 'three')]),
    ],
    { now: AT },
  )

  const markdown = await toMarkdown(model)

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

/** Markup that, live in a viewer, runs a script, loads a page or leaves for another scheme. */
const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '[ref][evil] and [evil]',
  '[evil]: javascript:alert(2)',
  '[e](java&#x73;cript:alert(3)) [t](<jav\tascript:alert(4)>) [v](VBScript:msgbox(5))',
  '[d](data:text/html;base64,PHNjcmlwdD4=) [f](file:///etc/passwd) [r](//evil.example/x)',
  '![pixel](https://evil.example/p.png) # not a heading *not emphasis*',
]
/** An answer's own Markdown, which the file keeps byte for byte. */
const TABLE = '| Meal | Allowance |\n| --- | --- |\n| Lunch | `<b>45</b>` euros |'
const CODE = '```html\n<b>45 euros</b>\n<script>stays code</script>\n```'
const KEPT = [
  '## Allowances',
  TABLE,
  CODE,
  '- **Lunch**: *45* euros, `<b>` is code',
  'See [the policy](https://example.com/policy?a=1&b=2) or [write](mailto:travel@example.com).',
]

/** The Markdown as a viewer reads it: CommonMark with GitHub's extensions, as the chat parses it. */
const parseGfm = (markdown: string) =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })

function nodesOf(node: Nodes): Nodes[] {
  return [node, ...('children' in node ? node.children.flatMap(nodesOf) : [])]
}

function textOf(node: Nodes): string {
  if ('value' in node) return node.value
  return 'children' in node ? node.children.map(textOf).join('') : ''
}

/** Every way the file could run or load something, for a viewer with or without GFM. */
function liveMarkup(markdown: string) {
  return [parseGfm(markdown), fromMarkdown(markdown)].flatMap((tree) =>
    nodesOf(tree).flatMap((node) => {
      if (node.type === 'html' || node.type === 'image' || node.type === 'imageReference') return [node.type]
      if ('url' in node && !/^(https?:|mailto:)/i.test(node.url)) return [`${node.type} ${node.url}`]
      return []
    }),
  )
}

test("the Markdown file holds no live markup from a title, a question, an answer or a source, and keeps the answer's own Markdown", async () => {
  const oneLine = HOSTILE.join(' ').replace(/\s+/g, ' ')
  const heading = '<img src=x onerror=alert(1)> [h](javascript:alert(1))'
  const answer = [
    ...KEPT,
    ...HOSTILE,
    'Cited [1] here; [1][(javascript:alert(6))](javascript:alert(7))',
    '[1]: javascript:alert(8)',
  ].join('\n\n')
  const model = exportModel(
    { title: HOSTILE.join(' ') },
    [
      message(HOSTILE.join('\n'), [], true),
      message(answer, [source(1, HOSTILE.join('\n'), HOSTILE.join(' '), heading)]),
    ],
    { now: AT },
  )

  const markdown = await toMarkdown(model)

  expect(liveMarkup(markdown)).toEqual([])
  expect(markdown.replace(CODE, '')).not.toMatch(/<(img|script|javascript)/i)
  for (const kept of KEPT) expect(markdown).toContain(kept)
  const tree = parseGfm(markdown)
  const nodes = nodesOf(tree)
  expect(nodes.filter((n) => n.type === 'link').map((n) => 'url' in n && n.url)).toEqual(
    expect.arrayContaining(['https://example.com/policy?a=1&b=2', 'mailto:travel@example.com']),
  )
  // Titles, names, questions and passages print as written.
  expect(textOf(tree.children[0] as Nodes)).toBe(oneLine)
  const paragraphs = nodes.filter((n) => n.type === 'paragraph').map(textOf)
  expect(paragraphs).toContain(HOSTILE.join('\n'))
  expect(paragraphs).toContain(`${oneLine}, “${heading}”`)
  expect(nodes.filter((n) => n.type === 'blockquote').map(textOf)).toEqual([HOSTILE.join('\n')])
  // The answer's HTML shows as text; an unsafe link as its text, as the chat shows them.
  expect(paragraphs).toContain('<img src=x onerror=alert(1)>')
  expect(paragraphs).toContain('x')
})

test("an answer's open code block is closed where the answer ends: it neither swallows nor unlocks the next", async () => {
  const model = exportModel(
    { title: 'Code' },
    [message('Look:\n\n```\nopen code'), message('```\n<script>alert(1)</script>\n```\n\nAfter the code.')],
    { now: AT },
  )

  const markdown = await toMarkdown(model)

  expect(liveMarkup(markdown)).toEqual([])
  const nodes = nodesOf(parseGfm(markdown))
  expect(nodes.filter((n) => n.type === 'code').map(textOf)).toEqual([
    'open code',
    '<script>alert(1)</script>',
  ])
  expect(nodes.filter((n) => n.type === 'paragraph').map(textOf)).toContain('After the code.')
})

test('an answer of hundreds of nested links comes out as its plain text', async () => {
  const nested = `${'['.repeat(300)}x${'](javascript:alert(1))'.repeat(300)}`
  const model = exportModel({ title: 'Nested' }, [message(nested)], { now: AT })

  const markdown = await toMarkdown(model)

  expect(liveMarkup(markdown)).toEqual([])
  expect(
    nodesOf(parseGfm(markdown))
      .filter((n) => n.type === 'paragraph')
      .map(textOf),
  ).toContain(nested)
})

test('the PDF prints a link to anything but http(s) or mailto as its text alone, and links nothing', async () => {
  const model = exportModel(
    { title: 'Links' },
    [
      message(
        'Open [the policy](https://example.com/p) or [this](javascript:alert(1)) or [that](data:text/html,x).',
      ),
    ],
    { now: AT },
  )

  const pdf = await getDocumentProxy(new Uint8Array(await toPdf(model)))

  const { text } = await extractText(pdf, { mergePages: true })
  expect(text).toContain('Open the policy (https://example.com/p) or this or that.')
  expect(text).not.toMatch(/javascript:|data:/)
  expect(await (await pdf.getPage(1)).getAnnotations()).toEqual([])
})
