/**
 * An answer's markdown on the public chat (issue 37, D123), drawn as DOM nodes from the syntax
 * tree of mdast-util-from-markdown with GFM (the parser the app's react-markdown uses), never as
 * HTML: every element is one of the tags below, made by name, with text as text nodes; raw HTML in
 * an answer is shown as the text it is; a link is kept only for http(s) (safeWebLink) and opens
 * in a new tab without opener, referrer or endorsement; an image is its alt text. Citation markers
 * `[n]` stay in the text as they were (the parser leaves a bracket without a definition as text),
 * numbering the sources listed under the answer; a marker whose sentence was checked shows its
 * outcome as the app's does (D129, D135: [n✓] checked, [n⚠] unverified, said in its name).
 * Loaded on demand (message-list.ts): the parser is about 26 KB gz, outside the page's first 60 KB.
 */
import type { Nodes, Parents, Root, RootContent, Table } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import { safeWebLink } from '#contracts/safe-link.ts'
import { listed, MARKER, markerChecks } from '#machines/chat/citation-outcomes.ts'
import { TEXT } from './texts.ts'

const extensions = [gfm()]
const mdastExtensions = [gfmFromMarkdown()]

/** Each marker's check in reading order (markerChecks), and how many markers were drawn so far. */
type Marks = { byMarker: (CitationCheck | null)[]; next: number }

export function parseAnswer(text: string): Root {
  return fromMarkdown(text, { extensions, mdastExtensions })
}

/** The nodes that show `text` with its markers' `checks` (the caller puts them in place, see morph.ts). */
export function answerNodes(text: string, checks: readonly CitationCheck[] | null = null): Node[] {
  const marks: Marks = { byMarker: markerChecks(text, checks), next: 0 }
  return parseAnswer(text).children.flatMap((node) => nodesOf(node, marks))
}

const OUTCOME_MARK = { checked: '✓', repaired: '✓', unverified: '⚠' } as const

function markLabel(n: number, check: CitationCheck): string | null {
  switch (check.outcome) {
    case 'checked':
      return TEXT.checked(n)
    case 'repaired':
      return TEXT.repaired(n, check.movedFrom ?? n)
    case 'unverified':
      return TEXT.unverified(n, listed(check.missing))
    default:
      return null
  }
}

/** A text with its checked markers drawn as marks: `[n✓]`, named by their outcome. */
function markedText(value: string, marks: Marks): Node[] {
  const out: Node[] = []
  let from = 0
  for (const match of value.matchAll(MARKER)) {
    const check = marks.byMarker[marks.next++] ?? null
    const n = Number(match[1])
    const label = check && markLabel(n, check)
    if (!check || !label) continue
    const outcome = check.outcome as keyof typeof OUTCOME_MARK
    const start = match.index + match[0].indexOf('[')
    out.push(document.createTextNode(value.slice(from, start)))
    out.push(
      el(
        'span',
        [
          document.createTextNode(`[${n}`),
          el('span', [document.createTextNode(OUTCOME_MARK[outcome])], { 'aria-hidden': 'true' }),
          document.createTextNode(']'),
        ],
        // A mark is read as its name: what the marker says and how its sentence was checked.
        { class: 'pc-mark', 'data-outcome': outcome, role: 'img', 'aria-label': label, title: label },
      ),
    )
    from = match.index + match[0].length
  }
  if (from === 0) return [document.createTextNode(value)]
  if (from < value.length) out.push(document.createTextNode(value.slice(from)))
  return out.filter((node) => node.nodeType !== Node.TEXT_NODE || node.nodeValue !== '')
}

/** Code shows its brackets as written; they still count, as the app counts every marker of the text. */
function skipMarkers(value: string, marks: Marks): void {
  marks.next += [...value.matchAll(MARKER)].length
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  children: Node[],
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

const childrenOf = (node: Parents, marks: Marks): Node[] =>
  (node.children as RootContent[]).flatMap((child) => nodesOf(child, marks))

function tableOf(node: Table, marks: Marks): Node {
  const rows = node.children.map((row, r) =>
    el(
      'tr',
      row.children.map((cell, c) => {
        const align = node.align?.[c]
        return el(r === 0 ? 'th' : 'td', childrenOf(cell, marks), align ? { class: `pc-al-${align}` } : {})
      }),
    ),
  )
  const [head, ...body] = rows
  const table = el('table', [el('thead', head ? [head] : []), el('tbody', body)])
  // A wide table scrolls sideways inside the bubble; focusable so a keyboard can scroll it.
  return el('div', [table], { class: 'pc-table', tabindex: '0' })
}

function nodesOf(node: Nodes, marks: Marks): Node[] {
  switch (node.type) {
    case 'text':
      return markedText(node.value, marks)
    case 'paragraph':
      return [el('p', childrenOf(node, marks))]
    case 'heading':
      // Inside a message of the log: below the page's own headings.
      return [el(node.depth <= 2 ? 'h4' : node.depth <= 4 ? 'h5' : 'h6', childrenOf(node, marks))]
    case 'emphasis':
      return [el('em', childrenOf(node, marks))]
    case 'strong':
      return [el('strong', childrenOf(node, marks))]
    case 'delete':
      return [el('del', childrenOf(node, marks))]
    case 'inlineCode':
      skipMarkers(node.value, marks)
      return [el('code', [document.createTextNode(node.value)])]
    case 'code':
      skipMarkers(node.value, marks)
      return [el('pre', [el('code', [document.createTextNode(node.value)])], { tabindex: '0' })]
    case 'blockquote':
      return [el('blockquote', childrenOf(node, marks))]
    case 'list': {
      const start = node.ordered && node.start !== null && node.start !== undefined && node.start !== 1
      return [
        el(node.ordered ? 'ol' : 'ul', childrenOf(node, marks), start ? { start: String(node.start) } : {}),
      ]
    }
    case 'listItem': {
      const box =
        typeof node.checked === 'boolean'
          ? [el('input', [], { type: 'checkbox', disabled: '', ...(node.checked ? { checked: '' } : {}) })]
          : []
      // A tight list's paragraphs are its items' lines, not paragraphs with margins.
      const children = node.spread
        ? childrenOf(node, marks)
        : node.children.flatMap((child) =>
            child.type === 'paragraph' ? childrenOf(child, marks) : nodesOf(child, marks),
          )
      return [el('li', [...box, ...children])]
    }
    case 'table':
      return [tableOf(node, marks)]
    case 'thematicBreak':
      return [el('hr', [])]
    case 'break':
      return [el('br', [])]
    case 'link': {
      const href = safeWebLink(node.url)
      if (!href) return childrenOf(node, marks)
      return [
        el('a', childrenOf(node, marks), { href, target: '_blank', rel: 'noopener noreferrer nofollow' }),
      ]
    }
    case 'image':
      return node.alt ? [document.createTextNode(node.alt)] : []
    case 'html':
      return [document.createTextNode(node.value)]
    case 'definition':
    case 'imageReference':
      return []
    case 'footnoteReference':
      return [document.createTextNode(`[^${node.label ?? node.identifier}]`)]
    default:
      // linkReference, footnoteDefinition, and anything a later parser adds: its words only.
      if ('children' in node) return childrenOf(node, marks)
      return 'value' in node ? [document.createTextNode(String(node.value))] : []
  }
}
