/**
 * The Pact broker, when there is one (D48). `publish` sends contracts/pacts/ with the
 * official Pact CLI (@pact-foundation/pact-cli: its Rust binary comes in an npm package), as
 * version = the git commit and branch = the git branch; `can-i-deploy` asks whether this commit
 * may go to PACT_ENVIRONMENT (default production). The provider test takes its pact source from
 * `verifierSource()`: the broker when PACT_BROKER_BASE_URL is set (and then publishes its
 * results), the local file otherwise.
 * Usage: node tests/contracts/pact-broker.ts publish | can-i-deploy [pacticipant]
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import path from 'node:path'
import { CONSUMER, PACT_DIR, PROVIDER } from './pact.ts'

export type BrokerEnv = Partial<
  Record<
    'PACT_BROKER_BASE_URL' | 'PACT_BROKER_TOKEN' | 'PACT_BROKER_USERNAME' | 'PACT_BROKER_PASSWORD',
    string
  >
>

export type GitVersion = { commit: string; branch: string }

/** This checkout's commit and branch: what the broker files the pact and the results under. */
export function gitVersion(cwd = process.cwd()): GitVersion {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD')
  if (branch === 'HEAD') throw new Error('pact: HEAD is detached; check out a branch first.')
  return { commit: git('rev-parse', 'HEAD'), branch }
}

/** The broker's address and credentials, or undefined when no broker is configured. */
export function brokerFrom(env: BrokerEnv) {
  const url = env.PACT_BROKER_BASE_URL?.trim()
  if (!url) return undefined
  // The Verifier refuses a token next to a username/password, even undefined ones: only set keys.
  if (env.PACT_BROKER_TOKEN) return { pactBrokerUrl: url, pactBrokerToken: env.PACT_BROKER_TOKEN }
  if (env.PACT_BROKER_USERNAME) {
    return {
      pactBrokerUrl: url,
      pactBrokerUsername: env.PACT_BROKER_USERNAME,
      pactBrokerPassword: env.PACT_BROKER_PASSWORD ?? '',
    }
  }
  return { pactBrokerUrl: url }
}

/**
 * Where the provider verification reads its pacts. With a broker: the pacts of the consumer's
 * main branch, of what is deployed or released, and of a branch named like this one; results are
 * published as this commit on this branch. Without one: the file the consumer tests wrote.
 */
export function verifierSource(env: BrokerEnv, version: () => GitVersion = gitVersion) {
  const broker = brokerFrom(env)
  if (!broker) return { pactUrls: [path.join(PACT_DIR, `${CONSUMER}-${PROVIDER}.json`)] }
  const { commit, branch } = version()
  return {
    ...broker,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }, { matchingBranch: true }],
    publishVerificationResult: true,
    providerVersion: commit,
    providerVersionBranch: branch,
  }
}

/** Runs the Pact CLI's `pact-broker` with the broker settings in its environment. */
export async function runBrokerCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  stdio: 'inherit' | 'pipe' = 'inherit',
): Promise<{ status: number; output: string }> {
  const cli = createRequire(import.meta.url).resolve('@pact-foundation/pact-cli/bin/pact-broker.js')
  // Asynchronous: a broker stand-in in this same process must keep answering meanwhile.
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', stdio, stdio] })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const [code] = (await once(child, 'close')) as [number | null]
  return { status: code ?? 1, output }
}

/** `dir`: where the pacts are (the consumer tests write them to PACT_DIR). */
export function publishArgs(version: GitVersion, dir = PACT_DIR): string[] {
  return ['publish', dir, '--consumer-app-version', version.commit, '--branch', version.branch]
}

export function canIDeployArgs(version: GitVersion, pacticipant: string, environment: string): string[] {
  return [
    'can-i-deploy',
    '--pacticipant',
    pacticipant,
    '--version',
    version.commit,
    '--to-environment',
    environment,
  ]
}

async function main(command: string | undefined, pacticipant = CONSUMER): Promise<number> {
  if (!brokerFrom(process.env)) {
    console.error('pact: set PACT_BROKER_BASE_URL (and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD).')
    return 2
  }
  const version = gitVersion()
  if (command === 'publish') return (await runBrokerCli(publishArgs(version))).status
  if (command === 'can-i-deploy') {
    const environment = process.env.PACT_ENVIRONMENT || 'production'
    return (await runBrokerCli(canIDeployArgs(version, pacticipant, environment))).status
  }
  console.error('usage: node tests/contracts/pact-broker.ts publish | can-i-deploy [pacticipant]')
  return 2
}

if (import.meta.main) process.exitCode = await main(process.argv[2], process.argv[3])
