/**
 * `.ci/audit` with a stand-in `npm` first on PATH: real findings fail the build, an unreachable
 * advisory service is a clear "skipped" line, never a failure.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const AUDIT = fileURLToPath(new URL('../../../.ci/audit', import.meta.url))

function runWithNpm(json: string, exitCode: number) {
  const bin = mkdtempSync(join(tmpdir(), 'docchat-fake-npm-'))
  const npm = join(bin, 'npm')
  writeFileSync(join(bin, 'answer.json'), json)
  writeFileSync(npm, `#!/usr/bin/env bash\ncat "${join(bin, 'answer.json')}"\nexit ${exitCode}\n`)
  chmodSync(npm, 0o755)
  const result = spawnSync('bash', [AUDIT], {
    env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` },
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

test('a high advisory in a production dependency fails the audit', () => {
  const report = JSON.stringify({
    vulnerabilities: { x: {} },
    metadata: { vulnerabilities: { high: 1, critical: 0 } },
  })
  const result = runWithNpm(report, 1)
  expect(result.status).toBe(1)
  expect(result.output).toContain('ci: npm audit found high or critical advisories')
})

test('an unreachable advisory service skips the audit with a clear line', () => {
  const error = JSON.stringify({
    message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
  })
  const result = runWithNpm(error, 1)
  expect(result.status).toBe(0)
  expect(result.output).toContain(
    'ci: npm audit skipped: the advisory service is not reachable from here (405 Method Not Allowed',
  )
})

test('no advisories passes', () => {
  const result = runWithNpm(JSON.stringify({ metadata: { vulnerabilities: { high: 0 } } }), 0)
  expect(result.status).toBe(0)
  expect(result.output).toContain('ci: npm audit: no high or critical advisories')
})
