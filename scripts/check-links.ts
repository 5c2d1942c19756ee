/**
 * `npm run lint:docs` (part of `npm run lint`): every link in the docs resolves inside the
 * repository. In README.md and every .md file under docs/ (or the files and folders given), a
 * relative path must name a file or folder of the repository, a `#fragment` must name a heading
 * (or an explicit `<a id>`) of the markdown file it points to, or a line (`#L12`) of another file;
 * and a link with a scheme (`https:`, `mailto:`) is refused, since the docs never send a reader
 * outside the repository. Links in code spans and fenced code blocks are text, not links.
 * Prints one line per broken link (`file:line: target: reason`) and exits 1 when there is one.
 *   node scripts/check-links.ts [--root=<repository>] [file-or-folder …]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export type Link = { target: string; line: number }
export type BrokenLink = Link & { file: string; reason: string }

/** The repository: the folder above scripts/. */
const ROOT = resolve(import.meta.dirname, '..')
const DEFAULT_INPUTS = ['README.md', 'docs']
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)/
const HTML_LINK = /\b(?:href|src)\s*=\s*"([^"]*)"/g
const HTML_ANCHOR = /<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"/g
const SCHEME = /^[a-z][a-z0-9+.-]*:/i
const LINE_FRAGMENT = /^L(\d+)(?:-L(\d+))?$/

/** The lines of a markdown text, with fenced code blocks blanked out (their line numbers kept). */
function proseLines(text: string): string[] {
  let fence: string | null = null
  return text.split(/\r?\n/).map((line) => {
    const opening = FENCE.exec(line)?.[1]
    if (fence === null) {
      if (opening) {
        fence = opening
        return ''
      }
      return line
    }
    // A fence closes with at least as many of the same character, and nothing else on the line.
    if (opening?.startsWith(fence) && line.trim() === opening) fence = null
    return ''
  })
}

/** `code spans` become blanks of the same length, so what they hold is never read as a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])+?\1/g, (span) => ' '.repeat(span.length))
}

/** The destination that starts at `start` (just after `](`): `<…>` or up to an unbalanced `)`. */
function destinationAt(line: string, start: number): string | null {
  let i = start
  while (line[i] === ' ') i++
  if (line[i] === '<') {
    const end = line.indexOf('>', i)
    return end === -1 ? null : line.slice(i + 1, end)
  }
  let depth = 0
  let end = i
  for (; end < line.length; end++) {
    const c = line[end]
    if (c === ' ' || c === '\t') break
    if (c === '(') depth++
    if (c === ')') {
      if (depth === 0) break
      depth--
    }
  }
  return end > i ? line.slice(i, end) : null
}

/** Every link destination of a markdown text: inline links and images, reference definitions, HTML. */
export function markdownLinks(text: string): Link[] {
  const links: Link[] = []
  for (const [index, raw] of proseLines(text).entries()) {
    const line = withoutCodeSpans(raw)
    const number = index + 1
    const definition = REFERENCE_DEFINITION.exec(line)?.[1]
    if (definition) links.push({ target: definition.replace(/^<|>$/g, ''), line: number })
    for (let at = line.indexOf(']('); at !== -1; at = line.indexOf('](', at + 2)) {
      const target = destinationAt(line, at + 2)
      if (target !== null) links.push({ target, line: number })
    }
    for (const match of line.matchAll(HTML_LINK)) links.push({ target: match[1] ?? '', line: number })
  }
  return links
}

/** A heading's text as GitHub renders it: the markup of links, images, code and emphasis gone. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+/g, '')
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2')
}

/**
 * GitHub's anchor for a heading (github-slugger): lower case, every character that is not a
 * letter, a mark, a digit, `_`, `-` or a space dropped, spaces turned into `-`.
 */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** The `#fragments` a markdown text answers: its headings' slugs (repeats get -1, -2…) and `<a id>`s. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const add = (heading: string) => {
    const slug = githubSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  const lines = proseLines(text)
  for (const [index, line] of lines.entries()) {
    const atx = ATX_HEADING.exec(line)
    if (atx) add(atx[1] ?? '')
    const previous = lines[index - 1]?.trim() ?? ''
    const paragraphLine = previous !== '' && !/^(?:[-*+>|#]|\d+[.)])/.test(previous)
    if (SETEXT_UNDERLINE.test(line) && paragraphLine) add(previous)
    for (const match of withoutCodeSpans(line).matchAll(HTML_ANCHOR)) anchors.add(match[1] ?? '')
  }
  return anchors
}

/** Why `target`, linked from `file`, does not resolve inside `root`; null when it does. */
export function brokenReason(root: string, file: string, target: string): string | null {
  if (SCHEME.test(target) || target.startsWith('//')) {
    return 'links outside the repository are not allowed: name the file or the command instead'
  }
  const hash = target.indexOf('#')
  const rawPath = hash === -1 ? target : target.slice(0, hash)
  let path: string
  let fragment: string | null
  try {
    path = decodeURIComponent(rawPath.split('?')[0] ?? '')
    fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1))
  } catch {
    return 'not valid percent-encoding'
  }
  const resolved = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path)
  const inRepo = relative(root, resolved)
  if (inRepo.startsWith(`..${sep}`) || inRepo === '..') return 'it points outside the repository'
  if (!existsSync(resolved)) return `no such file or folder: ${inRepo}`
  if (fragment === null || fragment === '') return null
  if (statSync(resolved).isDirectory()) return `a folder has no #${fragment}`
  const content = readFileSync(resolved, 'utf8')
  if (/\.md$/i.test(resolved)) {
    return headingAnchors(content).has(fragment) ? null : `no heading or anchor #${fragment} in ${inRepo}`
  }
  const lines = LINE_FRAGMENT.exec(fragment)
  if (!lines) return `#${fragment} names no line of ${inRepo} (use #L<n>)`
  const lineCount = content.split('\n').length
  const last = Number(lines[2] ?? lines[1])
  return last <= lineCount ? null : `${inRepo} has ${lineCount} lines, not ${last}`
}

/** The markdown files among `inputs` (files as given, folders searched), relative to `root`. */
export function markdownFiles(root: string, inputs: readonly string[]): string[] {
  const found: string[] = []
  const walk = (path: string) => {
    if (!existsSync(path)) throw new Error(`check-links: no such file or folder: ${relative(root, path)}`)
    if (!statSync(path).isDirectory()) {
      found.push(path)
      return
    }
    const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
    for (const entry of entries) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) walk(child)
      else if (/\.md$/i.test(entry.name)) found.push(child)
    }
  }
  for (const input of inputs) walk(resolve(root, input))
  return found
}

/** Every broken link of the markdown files among `inputs`. */
export function checkLinks(root: string, inputs: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = []
  for (const file of markdownFiles(root, inputs)) {
    for (const link of markdownLinks(readFileSync(file, 'utf8'))) {
      const reason = brokenReason(root, file, link.target)
      if (reason !== null) broken.push({ ...link, file: relative(root, file), reason })
    }
  }
  return broken
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const rootArg = args.find((arg) => arg.startsWith('--root='))
  const root = rootArg ? resolve(rootArg.slice('--root='.length)) : ROOT
  const given = args.filter((arg) => arg !== rootArg)
  const inputs = given.length > 0 ? given : DEFAULT_INPUTS
  const files = markdownFiles(root, inputs)
  const broken = checkLinks(root, inputs)
  for (const { file, line, target, reason } of broken) console.error(`${file}:${line}: ${target}: ${reason}`)
  if (broken.length > 0) {
    console.error(`check-links: ${broken.length} broken link${broken.length === 1 ? '' : 's'}`)
    process.exit(1)
  }
  console.log(`check-links: every link of ${files.length} markdown files resolves`)
}
