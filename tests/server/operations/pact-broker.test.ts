import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Verifier } from '@pact-foundation/pact'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { CONSUMER, PACT_DIR, PROVIDER } from '#tests/contracts/pact.ts'
import {
  canIDeployArgs,
  gitVersion,
  publishArgs,
  runBrokerCli,
  verifierSource,
} from '#tests/contracts/pact-broker.ts'
import { type FakeBroker, startFakeBroker } from '#tests/fakes/pact-broker.ts'
import { buildTestApp } from '../support/helper.ts'

const VERSION = { commit: '0123456789abcdef0123456789abcdef01234567', branch: 'issue-14' }
let broker: FakeBroker

beforeEach(async () => {
  broker = await startFakeBroker()
})
afterEach(async () => {
  await broker.close()
})

/**
 * A pact of its own to publish: the consumer tests rewrite contracts/pacts/ while this file runs
 * beside them (their global setup deletes it first), so the committed one may be missing just then.
 */
function pactToPublish(): { dir: string; interactions: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docchat-pact-'))
  const interactions = [1, 2].map((n) => ({
    type: 'Synchronous/HTTP',
    description: `call ${n}`,
    request: { method: 'GET', path: `/api/v1/health/${n}` },
    response: { status: 200 },
  }))
  const pact = {
    consumer: { name: CONSUMER },
    provider: { name: PROVIDER },
    interactions,
    metadata: { pactSpecification: { version: '4.0' } },
  }
  writeFileSync(path.join(dir, `${CONSUMER}-${PROVIDER}.json`), JSON.stringify(pact))
  return { dir, interactions: interactions.length }
}

function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, PACT_BROKER_BASE_URL: broker.url, ...extra }
}

test('publish sends the pact file as this commit on this branch, with the bearer token', async () => {
  const pact = pactToPublish()
  const { status, output } = await runBrokerCli(
    publishArgs(VERSION, pact.dir),
    cliEnv({ PACT_BROKER_TOKEN: 's3cret' }),
    'pipe',
  )

  expect(status, output).toBe(0)
  const publish = broker.requests.find((r) => r.method === 'POST' && r.path === '/contracts/publish')
  expect(publish?.authorization).toBe('Bearer s3cret')
  const body = publish?.body as {
    pacticipantName: string
    pacticipantVersionNumber: string
    branch: string
    contracts: Array<{ consumerName: string; providerName: string; content: string }>
  }
  expect(body.pacticipantName).toBe(CONSUMER)
  expect(body.pacticipantVersionNumber).toBe(VERSION.commit)
  expect(body.branch).toBe(VERSION.branch)
  const [contract] = body.contracts
  expect(contract?.providerName).toBe(PROVIDER)
  const sent = JSON.parse(Buffer.from(contract?.content ?? '', 'base64').toString('utf8'))
  expect(sent.interactions).toHaveLength(pact.interactions)
})

test('publish with a username and password sends basic auth', async () => {
  const env = cliEnv({ PACT_BROKER_USERNAME: 'ci', PACT_BROKER_PASSWORD: 'pw' })

  const { status, output } = await runBrokerCli(publishArgs(VERSION, pactToPublish().dir), env, 'pipe')

  expect(status, output).toBe(0)
  const publish = broker.requests.find((r) => r.path === '/contracts/publish')
  expect(publish?.authorization).toBe(`Basic ${Buffer.from('ci:pw').toString('base64')}`)
})

test('can-i-deploy asks the matrix about this commit and fails when the broker says no', async () => {
  const args = canIDeployArgs(VERSION, CONSUMER, 'production')

  const yes = await runBrokerCli(args, cliEnv({ PACT_BROKER_TOKEN: 't' }), 'pipe')
  broker.deployable = false
  const no = await runBrokerCli(args, cliEnv({ PACT_BROKER_TOKEN: 't' }), 'pipe')

  expect(yes.status, yes.output).toBe(0)
  expect(no.status).not.toBe(0)
  const matrix = broker.requests.find((r) => r.path.startsWith('/matrix'))
  const query = new URL(matrix?.path ?? '/', broker.url).searchParams
  expect(query.get('q[][pacticipant]')).toBe(CONSUMER)
  expect(query.get('q[][version]')).toBe(VERSION.commit)
  expect(query.get('environment')).toBe('production')
})

test('the version is the git commit and the branch the git branch', () => {
  const repo = mkdtempSync(path.join(tmpdir(), 'docchat-git-'))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
  git('init', '-q', '-b', 'feature-x')
  writeFileSync(path.join(repo, 'a.txt'), 'a')
  git('add', 'a.txt')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'a')

  expect(gitVersion(repo)).toEqual({ commit: git('rev-parse', 'HEAD'), branch: 'feature-x' })
})

test('without a broker the provider verifies the local pact file and publishes nothing', () => {
  const source = verifierSource({})

  expect(source).toEqual({ pactUrls: [path.join(PACT_DIR, `${CONSUMER}-${PROVIDER}.json`)] })
})

test('with a broker the provider reads its pacts there and publishes the result as this commit', async () => {
  broker.pacts.push({
    consumer: { name: CONSUMER },
    provider: { name: PROVIDER },
    interactions: [
      {
        description: 'a health check',
        request: { method: 'GET', path: '/api/v1/health' },
        response: { status: 200, body: { status: 'ok' } },
      },
    ],
    metadata: { pactSpecification: { version: '3.0.0' } },
  })
  const app = await buildTestApp()
  try {
    const providerBaseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    const source = verifierSource(
      { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: 'tok' },
      () => VERSION,
    )

    await new Verifier({ provider: PROVIDER, providerBaseUrl, logLevel: 'error', ...source }).verifyProvider()
  } finally {
    await app.close()
  }

  const asked = broker.requests.find((r) => r.method === 'POST' && r.path.endsWith('/for-verification'))
  expect(asked?.path).toBe(`/pacts/provider/${PROVIDER}/for-verification`)
  expect(asked?.authorization).toBe('Bearer tok')
  expect(asked?.body).toMatchObject({
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }, { matchingBranch: true }],
    providerVersionBranch: VERSION.branch,
  })
  const branch = broker.requests.find((r) => r.method === 'PUT')
  expect(branch?.path).toBe(`/pacticipants/${PROVIDER}/branches/${VERSION.branch}/versions/${VERSION.commit}`)
  const result = broker.requests.find((r) => r.path.endsWith('/verification-results'))
  expect(result?.body).toMatchObject({ success: true, providerApplicationVersion: VERSION.commit })
})
