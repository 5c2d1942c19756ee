/**
 * An answer's markdown on the public chat (issue 37, D123), drawn as DOM nodes from the syntax
 * tree of mdast-util-from-markdown with GFM (the parser the app's react-markdown uses), never as
 * HTML: every element is one of the tags below, made by name, with text as text nodes; raw HTML in
 * an answer is shown as the text it is; a link is kept only for http(s) (safeWebLink) and opens
 * in a new tab without opener, referrer or endorsement; an image is its alt text. Citation markers
 * `[n]` stay in the text as they were (the parser leaves a bracket without a definition as text),
 * numbering the sources listed under the answer. Loaded on demand (message-list.ts): the parser
 * is about 26 KB gz, outside the page's first 60 KB.
 */
import type { Nodes, Parents, Root, RootContent, Table } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import { safeWebLink } from '#contracts/safe-link.ts'

const extensions = [gfm()]
const mdastExtensions = [gfmFromMarkdown()]

export function parseAnswer(text: string): Root {
  return fromMarkdown(text, { extensions, mdastExtensions })
}

/** The nodes that show `text` (the caller puts them in place, see morph.ts). */
export function answerNodes(text: string): Node[] {
  return parseAnswer(text).children.flatMap(nodesOf)
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

const childrenOf = (node: Parents): Node[] => (node.children as RootContent[]).flatMap(nodesOf)

function tableOf(node: Table): Node {
  const rows = node.children.map((row, r) =>
    el(
      'tr',
      row.children.map((cell, c) => {
        const align = node.align?.[c]
        return el(r === 0 ? 'th' : 'td', childrenOf(cell), align ? { class: `pc-al-${align}` } : {})
      }),
    ),
  )
  const [head, ...body] = rows
  const table = el('table', [el('thead', head ? [head] : []), el('tbody', body)])
  // A wide table scrolls sideways inside the bubble; focusable so a keyboard can scroll it.
  return el('div', [table], { class: 'pc-table', tabindex: '0' })
}

function nodesOf(node: Nodes): Node[] {
  switch (node.type) {
    case 'text':
      return [document.createTextNode(node.value)]
    case 'paragraph':
      return [el('p', childrenOf(node))]
    case 'heading':
      // Inside a message of the log: below the page's own headings.
      return [el(node.depth <= 2 ? 'h4' : node.depth <= 4 ? 'h5' : 'h6', childrenOf(node))]
    case 'emphasis':
      return [el('em', childrenOf(node))]
    case 'strong':
      return [el('strong', childrenOf(node))]
    case 'delete':
      return [el('del', childrenOf(node))]
    case 'inlineCode':
      return [el('code', [document.createTextNode(node.value)])]
    case 'code':
      return [el('pre', [el('code', [document.createTextNode(node.value)])], { tabindex: '0' })]
    case 'blockquote':
      return [el('blockquote', childrenOf(node))]
    case 'list': {
      const start = node.ordered && node.start !== null && node.start !== undefined && node.start !== 1
      return [el(node.ordered ? 'ol' : 'ul', childrenOf(node), start ? { start: String(node.start) } : {})]
    }
    case 'listItem': {
      const box =
        typeof node.checked === 'boolean'
          ? [el('input', [], { type: 'checkbox', disabled: '', ...(node.checked ? { checked: '' } : {}) })]
          : []
      // A tight list's paragraphs are its items' lines, not paragraphs with margins.
      const children = node.spread
        ? childrenOf(node)
        : node.children.flatMap((child) => (child.type === 'paragraph' ? childrenOf(child) : nodesOf(child)))
      return [el('li', [...box, ...children])]
    }
    case 'table':
      return [tableOf(node)]
    case 'thematicBreak':
      return [el('hr', [])]
    case 'break':
      return [el('br', [])]
    case 'link': {
      const href = safeWebLink(node.url)
      if (!href) return childrenOf(node)
      return [el('a', childrenOf(node), { href, target: '_blank', rel: 'noopener noreferrer nofollow' })]
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
      if ('children' in node) return childrenOf(node)
      return 'value' in node ? [document.createTextNode(String(node.value))] : []
  }
}
