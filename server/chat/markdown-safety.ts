/**
 * Markdown that came from a person, a model or a file, made safe to hand to any Markdown viewer
 * (D101): it holds no HTML and no link but to http(s): or mailto:, as the chat shows it (D23).
 * Plain text (a title, a name, a question, a quoted passage) is escaped to print as written; an
 * answer is parsed as the chat parses it (CommonMark + GFM, micromark) and only the offending
 * nodes' source is rewritten, so its tables, code and links that stay keep every byte.
 */
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'

/** The links a reader may follow, as the chat's own renderer allows them (markdown-answer.tsx). */
export const SAFE_LINK = /^(https?:|mailto:)/i

/**
 * Rewriting can make new markup (an escaped HTML block's text holding a link, a label left
 * behind); each round parses again. Past this many, the answer is written as plain text.
 */
const MAX_ROUNDS = 3
/**
 * micromark matches brackets in quadratic time (a parse of 2,000 nested links takes 0.6 s of CPU,
 * of 4,000 3.4 s; 4,000 `[a]` 0.35 s): an answer with more `[` than this is written as plain text
 * without a parse, so that no answer holds the server's thread for long.
 */
const MAX_BRACKETS = 256

/** Without `<` or `[` no HTML, link, image or definition can start; without a fence none can leak. */
const NEEDS_PARSE = /[<[]|^ {0,3}(`{3,}|~{3,})/m

/** What makes inline or block markup anywhere in a line. */
const MARKUP_CHARACTER = /[\\`*_[\]<>&~|#]/g
/** What makes a list, a heading underline or a thematic break at a line's start. */
const LINE_START_MARK = /^(\s*)([-+=])/
const LINE_START_NUMBER = /^(\s*\d{1,9})([.)])/

type Edit = { start: number; end: number; text: string }

/**
 * `text` as Markdown that prints exactly `text`, line by line: every markup character escaped,
 * `<` as `&lt;` so that no tag shows even to a viewer that ignores backslashes.
 */
export function escapeMarkdownText(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(MARKUP_CHARACTER, (character) => (character === '<' ? '&lt;' : `\\${character}`))
        .replace(LINE_START_MARK, '$1\\$2')
        .replace(LINE_START_NUMBER, '$1\\$2'),
    )
    .join('\n')
}

/**
 * An answer's Markdown with raw HTML made text (`<` as `&lt;`), links to anything but http(s): or
 * mailto: reduced to their text, images to their alt text (the chat never loads one), unsafe
 * definitions removed, and a code block left open at its end closed, so that it neither swallows
 * nor unlocks what the file writes after it.
 */
export function neutraliseMarkdown(markdown: string): string {
  if (!NEEDS_PARSE.test(markdown)) return markdown
  if (countOf('[', markdown) > MAX_BRACKETS) return escapeMarkdownText(markdown)
  let text = markdown
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const tree = parse(text)
    const edits = editsFor(tree, text)
    if (edits.length === 0) return closeOpenFence(tree, text)
    text = applyEdits(text, edits)
  }
  const tree = parse(text)
  return editsFor(tree, text).length === 0 ? closeOpenFence(tree, text) : escapeMarkdownText(markdown)
}

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
}

function editsFor(tree: Root, text: string): Edit[] {
  const definitions = new Map<string, string>()
  const edits: Edit[] = []
  const collect = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier))
      definitions.set(node.identifier, node.url)
    if ('children' in node) for (const child of node.children) collect(child)
  }
  collect(tree)
  const visit = (node: Nodes) => {
    const range = rangeOf(node)
    switch (node.type) {
      case 'html':
        edits.push({ ...range, text: slice(text, range).replaceAll('<', '&lt;') })
        return
      case 'image':
      case 'imageReference':
        edits.push({ ...range, text: escapeMarkdownText(node.alt ?? '') })
        return
      case 'definition':
        if (!SAFE_LINK.test(node.url)) edits.push({ ...range, text: '' })
        return
      case 'link':
      case 'linkReference': {
        const url = node.type === 'link' ? node.url : (definitions.get(node.identifier) ?? '')
        if (!SAFE_LINK.test(url)) edits.push(...unwrap(node))
        break
      }
    }
    if ('children' in node) for (const child of node.children) visit(child)
  }
  visit(tree)
  return edits
}

/** A link's label without the link: what is around its children goes, the children stay. */
function unwrap(node: Nodes & { children: Nodes[] }): Edit[] {
  const range = rangeOf(node)
  const first = node.children[0]
  const last = node.children.at(-1)
  if (!first || !last) return [{ ...range, text: '' }]
  return [
    { start: range.start, end: rangeOf(first).start, text: '' },
    { start: rangeOf(last).end, end: range.end, text: '' },
  ]
}

/** A fenced code block running to the end of the text is closed there (top level only: a list
 * or quote ends before the file's next line, and its code block with it). */
function closeOpenFence(tree: Root, text: string): string {
  const last = tree.children.at(-1)
  if (last?.type !== 'code') return text
  const lines = slice(text, rangeOf(last)).split('\n')
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1]
  if (!fence) return text
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`)
  if (lines.length > 1 && closing.test(lines.at(-1) ?? '')) return text
  return `${text.trimEnd()}\n${fence}`
}

function countOf(character: string, text: string): number {
  let count = 0
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++
  return count
}

function rangeOf(node: Nodes): { start: number; end: number } {
  return { start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 }
}

function slice(text: string, range: { start: number; end: number }): string {
  return text.slice(range.start, range.end)
}

/** The edits in order, each one that overlaps an earlier one left for the next round. */
function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end)
  let out = ''
  let at = 0
  for (const edit of sorted) {
    if (edit.start < at) continue
    out += text.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return out + text.slice(at)
}
