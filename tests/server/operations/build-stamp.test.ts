/** `npm start` rebuilds the SPA only when an input changed since the stamped build (D41). */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { isCurrent, writeStamp } from '../../../scripts/build-if-stale.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'docchat-stamp-'))
  roots.push(root)
  mkdirSync(join(root, 'src'))
  mkdirSync(join(root, 'dist'))
  writeFileSync(join(root, 'index.html'), '<div id="root"></div>')
  writeFileSync(join(root, 'src', 'main.tsx'), 'export {}')
  writeFileSync(join(root, 'src', 'main.test.tsx'), 'test')
  writeFileSync(join(root, 'dist', 'index.html'), '<built>')
  return root
}

test('a stamped build is current until a source changes, a file appears, or the output is gone', () => {
  const root = project()
  expect(isCurrent(root)).toBe(false)
  writeStamp(root)
  expect(isCurrent(root)).toBe(true)

  // Touching without changing is not a change; a test file is not an input.
  utimesSync(join(root, 'src', 'main.tsx'), new Date(), new Date())
  writeFileSync(join(root, 'src', 'main.test.tsx'), 'another test')
  expect(isCurrent(root)).toBe(true)

  writeFileSync(join(root, 'src', 'main.tsx'), 'export const changed = 1')
  expect(isCurrent(root)).toBe(false)
  writeStamp(root)
  writeFileSync(join(root, 'src', 'new.ts'), 'export {}')
  expect(isCurrent(root)).toBe(false)
  writeStamp(root)
  rmSync(join(root, 'dist', 'index.html'))
  expect(isCurrent(root)).toBe(false)
})
