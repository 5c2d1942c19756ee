/**
 * docs/architecture.md opens with "Where things are": a newcomer's question, and the file that
 * answers it. The link check (check-links.ts) proves every link resolves; this proves the table is
 * there and that every row names at least one path of the repository, so a row cannot quietly
 * become prose that names a file nobody checks. Run by `npm run lint:docs`, with Node's own runner.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { test } from 'node:test'
import { markdownLinks } from './check-links.ts'

const ROOT = resolve(import.meta.dirname, '..')
const PAGE = resolve(ROOT, 'docs/architecture.md')

/** The rows of the first table under the "Where things are" heading. */
function whereRows(text: string): string[] {
  const start = text.indexOf('\n## Where things are\n')
  assert.ok(start >= 0, 'docs/architecture.md has a "Where things are" section')
  const next = text.indexOf('\n## ', start + 1)
  const section = text.slice(start, next < 0 ? undefined : next)
  return section
    .split('\n')
    .filter((line) => /^\|/.test(line) && !/^\|\s*-/.test(line))
    .slice(1)
}

test('the "Where things are" table comes first and has a row per question', () => {
  const text = readFileSync(PAGE, 'utf8')
  assert.ok(text.indexOf('## Where things are') < text.indexOf('## The shape of the system'))
  assert.ok(whereRows(text).length >= 15)
})

test('every row names at least one path, and every path it names exists', () => {
  for (const row of whereRows(readFileSync(PAGE, 'utf8'))) {
    const links = markdownLinks(row).map((link) => link.target.split('#')[0] ?? '')
    assert.ok(links.length > 0, `a row names no path: ${row}`)
    for (const target of links) {
      assert.ok(existsSync(resolve(dirname(PAGE), target)), `${target} does not exist (${row})`)
    }
  }
})
