/**
 * Every dependency that runs an install script has been looked at (issue 40, item 9): npm 11 lists
 * the unreviewed ones as warnings on every `npm ci`, and a later npm blocks them. package.json's
 * `allowScripts` says yes or no to each one the lock file marks with `hasInstallScript`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'))

test('every package with an install script is approved or denied in allowScripts', () => {
  const reviewed: Record<string, boolean> = readJson('package.json').allowScripts ?? {}
  const lock: { packages: Record<string, { hasInstallScript?: boolean }> } = readJson('package-lock.json')
  const unreviewed = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .filter((name) => name !== '' && !(name in reviewed))
  expect(unreviewed).toEqual([])
})
