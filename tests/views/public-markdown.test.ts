/**
 * An answer's markdown on the public chat (issue 37, D123): drawn as DOM nodes, never as HTML
 * (what a model writes cannot become markup or script), links only to web pages and in a new tab
 * without opener, referrer or endorsement, lists, tables that scroll and code, `[n]` markers kept;
 * drawn again at each token by changing the nodes already there, not replacing them.
 */
import { expect, test } from 'vitest'
import { answerNodes } from '#src/public/markdown.ts'
import { morphChildren } from '#src/public/morph.ts'

function draw(text: string, into = document.createElement('div')): HTMLDivElement {
  morphChildren(into, answerNodes(text))
  return into
}

test('HTML in an answer is shown as text and never becomes an element', () => {
  const text =
    '<script>alert(1)</script>\n\nHi <img src=x onerror="alert(2)"> <b onclick="x()">bold</b>\n\n<iframe src="https://evil.example"></iframe>'
  const div = draw(text)
  expect(div.querySelector('script, img, b, iframe, [onerror], [onclick]')).toBeNull()
  expect(div.textContent).toContain('<script>alert(1)</script>')
  expect(div.textContent).toContain('<img src=x onerror="alert(2)">')
})

test('only http(s) links are links, opening apart; javascript:, data: and relative ones are their words', () => {
  const div = draw(
    '[safe](https://example.com/a?b=1) [plain](http://example.org) [bad](javascript:alert(1)) [data](data:text/html,<b>x</b>) [here](/api/v1/auth/me) [mail](mailto:a@b.c) <javascript:alert(3)>',
  )
  const links = [...div.querySelectorAll('a')]
  expect(links.map((a) => a.getAttribute('href'))).toEqual([
    'https://example.com/a?b=1',
    'http://example.org/',
  ])
  for (const a of links) {
    expect(a.getAttribute('target')).toBe('_blank')
    expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow')
  }
  expect(div.textContent).toContain('bad')
  expect(div.textContent).toContain('here')
  expect(div.innerHTML).not.toMatch(/javascript:alert\(1\)"|href="data:|href="\/api/)
})

test('lists, emphasis, code and headings are drawn as such', () => {
  const div = draw(
    '## Leave\n\n1. **Annual**: 25 days\n2. *Sick*: `unlimited`\n\n- [x] asked HR\n- [ ] signed\n\n```\nconst a = "<b>"\n```',
  )
  expect(div.querySelector('h4')?.textContent).toBe('Leave')
  expect([...div.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual([
    'Annual: 25 days',
    'Sick: unlimited',
  ])
  expect(div.querySelector('ol strong')?.textContent).toBe('Annual')
  expect(div.querySelector('ol em')?.textContent).toBe('Sick')
  expect(div.querySelector('ol code')?.textContent).toBe('unlimited')
  expect([...div.querySelectorAll('ul input[type=checkbox]')].map((c) => c.hasAttribute('checked'))).toEqual([
    true,
    false,
  ])
  expect(div.querySelector('pre code')?.textContent).toBe('const a = "<b>"')
  expect(div.querySelector('pre b')).toBeNull()
})

test('a table is drawn in a box that scrolls sideways and can be reached by keyboard', () => {
  const div = draw('| Kind | Days |\n|:--|--:|\n| Annual | 25 |\n| Sick | 10 |')
  const box = div.querySelector('.pc-table')
  expect(box?.getAttribute('tabindex')).toBe('0')
  expect([...(box?.querySelectorAll('th') ?? [])].map((th) => th.textContent)).toEqual(['Kind', 'Days'])
  expect([...(box?.querySelectorAll('tbody tr') ?? [])].map((tr) => tr.textContent)).toEqual([
    'Annual25',
    'Sick10',
  ])
  expect(box?.querySelector('td.pc-al-right')?.textContent).toBe('25')
})

test('citation markers stay in the text, as the sources list numbers them', () => {
  const div = draw('Twenty-five days [1] [2]. Part-timers get it pro rata.[3]')
  expect(div.textContent).toBe('Twenty-five days [1] [2]. Part-timers get it pro rata.[3]')
  expect(div.querySelectorAll('p')).toHaveLength(1)
  expect(div.querySelector('a')).toBeNull()
})

test('a checked marker shows its outcome; code keeps its brackets and the markers after it keep their checks', () => {
  const text = 'Leave is 25 days [1]. Write `[2]` for a note. A taxi is 300 euros [2]. See [3].'
  const into = document.createElement('div')
  morphChildren(
    into,
    answerNodes(text, [
      { marker: 1, sentence: 'Leave is 25 days.', outcome: 'checked', sourceIndex: 1, missing: [] },
      {
        marker: 2,
        sentence: 'A taxi is 300 euros.',
        outcome: 'unverified',
        sourceIndex: 2,
        missing: ['300 euros'],
      },
      { marker: 3, sentence: 'See.', outcome: 'nothing-to-check', sourceIndex: 3, missing: [] },
    ]),
  )
  const marks = [...into.querySelectorAll('[role="img"]')]
  expect(marks.map((m) => [m.textContent, m.getAttribute('aria-label')])).toEqual([
    ['[1✓]', 'Passage 1, checked'],
    ['[2⚠]', 'Passage 2: 300 euros not found in the passage'],
  ])
  expect(into.querySelector('code')?.textContent).toBe('[2]')
  expect(into.textContent).toBe(
    'Leave is 25 days [1✓]. Write [2] for a note. A taxi is 300 euros [2⚠]. See [3].',
  )
})

test('drawn again as tokens arrive, the nodes already shown are kept and only changed', () => {
  const div = draw('Staff get **25')
  const paragraph = div.querySelector('p')
  draw('Staff get **25 days**', div)
  expect(div.querySelector('p')).toBe(paragraph)
  const strong = div.querySelector('strong')
  expect(strong?.textContent).toBe('25 days')
  draw('Staff get **25 days** a year.\n\n- one', div)
  expect(div.querySelector('p')).toBe(paragraph)
  expect(div.querySelector('strong')).toBe(strong)
  expect(div.textContent).toBe('Staff get 25 days a year.one')
})
