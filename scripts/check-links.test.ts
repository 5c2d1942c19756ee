/**
 * The link check on a throw-away repository: it must fail on each kind of broken link, or
 * `npm run lint:docs` passing would prove nothing. Run with Node's own test runner
 * (`node --test`, in `npm run lint:docs`), like the script it tests: no build, no Vitest project.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, test } from 'node:test'
import { checkLinks, githubSlug, headingAnchors, markdownLinks } from './check-links.ts'

const repo = mkdtempSync(join(tmpdir(), 'check-links-'))
after(() => rmSync(repo, { recursive: true, force: true }))

function write(path: string, text: string) {
  mkdirSync(dirname(join(repo, path)), { recursive: true })
  writeFileSync(join(repo, path), text)
}

write('server/app.ts', 'one\ntwo\nthree\n')
write(
  'docs/guide.md',
  [
    '# Guide',
    '',
    '## API conventions',
    '',
    '### D40. Readiness and metrics: `/api/v1/ready`, Prometheus through prom-client',
    '',
    '## Notes',
    '',
    '## Notes',
    '',
    '<a id="kept-anchor"></a>',
    'Setext heading',
    '--------------',
  ].join('\n'),
)

function brokenIn(text: string): string[] {
  write('docs/page.md', text)
  return checkLinks(repo, ['docs/page.md']).map((b) => b.target)
}

test('GitHub anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered', () => {
  assert.equal(
    githubSlug('D1. One process serves the SPA and the API'),
    'd1-one-process-serves-the-spa-and-the-api',
  )
  assert.equal(
    githubSlug('D40. Readiness and metrics: `/api/v1/ready`, Prometheus through prom-client'),
    'd40-readiness-and-metrics-apiv1ready-prometheus-through-prom-client',
  )
  assert.equal(githubSlug('§7 The calls'), '7-the-calls')
  assert.equal(githubSlug('Try the Drive flow [offline](x.md)'), 'try-the-drive-flow-offline')
  const anchors = headingAnchors('## Notes\n\n## Notes\n\n```md\n# Not a heading\n```\n')
  assert.deepEqual([...anchors], ['notes', 'notes-1'])
})

test('links are read from prose, not from code spans or fenced code', () => {
  const text = [
    'See [the guide](docs/guide.md) and ![a picture](img.png "title").',
    'Not `[code](nowhere.md)`.',
    '```sh',
    'echo [x](inside-a-fence.md)',
    '```',
    '[ref]: docs/ref.md',
    '<a href="docs/html.md">html</a>',
  ].join('\n')
  assert.deepEqual(markdownLinks(text), [
    { target: 'docs/guide.md', line: 1 },
    { target: 'img.png', line: 1 },
    { target: 'docs/ref.md', line: 6 },
    { target: 'docs/html.md', line: 7 },
  ])
})

test('links that resolve pass', () => {
  const good = [
    '[guide](guide.md), [its section](guide.md#api-conventions), [D40](guide.md#d40-readiness-and-metrics-apiv1ready-prometheus-through-prom-client)',
    '[second Notes](guide.md#notes-1), [anchor](guide.md#kept-anchor), [setext](./guide.md#setext-heading)',
    '[here](#on-this-page), [folder](../server), [line](../server/app.ts#L2), [lines](/server/app.ts#L1-L3)',
    '',
    '## On this page',
  ].join('\n')
  assert.deepEqual(brokenIn(good), [])
})

test('every kind of broken link is reported, with its line', () => {
  const bad = [
    '[missing file](nowhere.md)',
    '[missing heading](guide.md#no-such-heading)',
    '[missing here](#nor-here)',
    '[outside](../../../etc/passwd)',
    '[web](https://example.com/docs)',
    '[mail](mailto:someone@example.com)',
    '[past the end](../server/app.ts#L99)',
    '[not a line](../server/app.ts#intro)',
    '[folder anchor](../server#x)',
  ].join('\n')
  write('docs/page.md', bad)
  const broken = checkLinks(repo, ['docs'])
  assert.deepEqual(
    broken.map((b) => [b.file, b.line, b.target]),
    [
      ['docs/page.md', 1, 'nowhere.md'],
      ['docs/page.md', 2, 'guide.md#no-such-heading'],
      ['docs/page.md', 3, '#nor-here'],
      ['docs/page.md', 4, '../../../etc/passwd'],
      ['docs/page.md', 5, 'https://example.com/docs'],
      ['docs/page.md', 6, 'mailto:someone@example.com'],
      ['docs/page.md', 7, '../server/app.ts#L99'],
      ['docs/page.md', 8, '../server/app.ts#intro'],
      ['docs/page.md', 9, '../server#x'],
    ],
  )
  const reasons = broken.map((b) => b.reason)
  assert.match(reasons[1] ?? '', /no heading or anchor #no-such-heading in docs\/guide\.md/)
  assert.match(reasons[3] ?? '', /outside the repository/)
  for (const external of [reasons[4], reasons[5]])
    assert.match(external ?? '', /links outside the repository/)
  assert.match(reasons[6] ?? '', /has 4 lines, not 99/)
})

test('the command exits 1 and names the broken link, and 0 when all resolve', () => {
  const script = join(import.meta.dirname, 'check-links.ts')
  write('docs/page.md', '[fine](guide.md)\n[broken](gone.md#x)\n')
  const run = (): { status: number; output: string } => {
    try {
      return {
        status: 0,
        output: execFileSync(process.execPath, [script, `--root=${repo}`, 'docs'], {
          encoding: 'utf8',
          stdio: 'pipe',
        }),
      }
    } catch (error) {
      const failed = error as { status: number; stderr: string }
      return { status: failed.status, output: failed.stderr }
    }
  }
  const failing = run()
  assert.equal(failing.status, 1)
  assert.match(failing.output, /docs\/page\.md:2: gone\.md#x: no such file or folder/)
  write('docs/page.md', '[fine](guide.md)\n')
  assert.equal(run().status, 0)
})
