/**
 * `npm start` builds the SPA only when dist/ is not current (D41). "Current" means
 * dist/.build-stamp holds the hash of every input the build reads (src, contracts, machines,
 * index.html, public.html, the Vite/Panda/PostCSS configs, package-lock.json). `npm run build` writes the
 * stamp (`--stamp`); any change to an input, or a missing dist/index.html, means a rebuild.
 *   node scripts/build-if-stale.ts          build if stale (prints which)
 *   node scripts/build-if-stale.ts --stamp  record the inputs of the build just made
 *   node scripts/build-if-stale.ts --check  exit 0 when current, 1 when stale
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
const STAMP_FILE = '.build-stamp'
const INPUTS = [
  'src',
  'contracts',
  'machines',
  'public',
  'index.html',
  'public.html',
  'vite.config.ts',
  'panda.config.ts',
  'postcss.config.cjs',
  'package-lock.json',
]
const SKIP = new Set(['node_modules', 'pacts', '.git'])

function files(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .flatMap((entry) => files(join(path, entry.name)))
}

export function inputsHash(root: string): string {
  const hash = createHash('sha256')
  const all = INPUTS.flatMap((input) => files(join(root, input))).sort()
  for (const file of all) {
    hash.update(relative(root, file))
    hash.update('\0')
    hash.update(readFileSync(file))
  }
  return hash.digest('hex')
}

export function writeStamp(root: string): void {
  writeFileSync(join(root, 'dist', STAMP_FILE), `${inputsHash(root)}\n`)
}

export function isCurrent(root: string): boolean {
  const stamp = join(root, 'dist', STAMP_FILE)
  if (!existsSync(join(root, 'dist', 'index.html')) || !existsSync(stamp)) return false
  return readFileSync(stamp, 'utf8').trim() === inputsHash(root)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2]
  if (mode === '--stamp') writeStamp(ROOT)
  else if (mode === '--check') process.exit(isCurrent(ROOT) ? 0 : 1)
  else if (isCurrent(ROOT)) console.log('dist/ is current: not rebuilding (`npm run build` forces a build)')
  else {
    console.log('dist/ is missing or older than its sources: building')
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  }
}
