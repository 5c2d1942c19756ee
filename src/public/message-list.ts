/**
 * The conversation on the public chat: one list item per message, kept by id and changed in
 * place as an answer grows, so focus (on a Like button, say) and a screen reader's place survive
 * each token. An answer being written is `aria-busy`: the log announces it once it is complete.
 * Citations are numbered snippets with the document's name when the owner shows names: no link,
 * no viewer (issue 37). An answer's markdown is drawn by markdown.ts, loaded with the first answer
 * shown (plain text until then), and changed in place by morph.ts as it grows (D123).
 */
import type { Feedback } from '#contracts/chat.ts'
import type { VisitorMessage, VisitorSource } from '#machines/public-chat/public-chat-model.ts'
import { isRatable } from '#machines/public-chat/public-chat-model.ts'
import { h, setAttr, setText } from './dom.ts'
import type { answerNodes } from './markdown.ts'
import { morphChildren } from './morph.ts'
import { TEXT } from './texts.ts'

export type Rate = (messageId: string, feedback: Feedback) => void

type Item = {
  li: HTMLLIElement
  text: HTMLElement
  stopped: HTMLElement
  rating: HTMLElement | null
  /** The answer's text as last drawn from its markdown (null: not yet, or shown as plain text). */
  drawn: string | null
  /** The checks its markers were last drawn with (D135). */
  drawnChecks: VisitorMessage['checks']
}
type Markdown = typeof answerNodes

function sourceItem(source: VisitorSource): HTMLLIElement {
  const where = [source.documentName, source.page === null ? null : TEXT.page(source.page)]
    .filter((part): part is string => part !== null)
    .join(', ')
  return h(
    'li',
    { class: 'pc-source' },
    h('span', { class: 'pc-cite' }, `[${source.citation}]`),
    where === '' ? null : h('span', { class: 'pc-docname' }, ` ${where}`),
    h('blockquote', { class: 'pc-snippet' }, source.snippet),
  )
}

const SVG = 'http://www.w3.org/2000/svg'
// Lucide's thumbs-up, drawn rather than an emoji (a system without an emoji font shows a box).
const THUMB = [
  'M7 10v12',
  'M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z',
]

function thumb(down: boolean): SVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  for (const [name, value] of Object.entries({
    viewBox: '0 0 24 24',
    width: '16',
    height: '16',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  }))
    svg.setAttribute(name, value)
  const group = document.createElementNS(SVG, 'g')
  if (down) group.setAttribute('transform', 'rotate(180 12 12)')
  for (const d of THUMB) {
    const path = document.createElementNS(SVG, 'path')
    path.setAttribute('d', d)
    group.append(path)
  }
  svg.append(group)
  return svg
}

function ratingGroup(id: string, rate: Rate): HTMLElement {
  const button = (feedback: Feedback, label: string, icon: SVGElement) =>
    h(
      'button',
      {
        type: 'button',
        class: 'pc-rate',
        'data-feedback': feedback,
        'aria-pressed': 'false',
        'aria-label': label,
        title: label,
      },
      icon,
    )
  const like = button('like', TEXT.like, thumb(false))
  const dislike = button('dislike', TEXT.dislike, thumb(true))
  like.addEventListener('click', () => rate(id, 'like'))
  dislike.addEventListener('click', () => rate(id, 'dislike'))
  return h('div', { class: 'pc-rating', role: 'group', 'aria-label': TEXT.rate }, like, dislike)
}

function createItem(message: VisitorMessage, rate: Rate): Item {
  const bot = message.sender === 'bot'
  const text = h('div', { class: 'pc-text pc-plain' })
  const stopped = h('p', { class: 'pc-stopped', hidden: true }, TEXT.stopped)
  const sources =
    message.sources.length > 0
      ? h(
          'section',
          { class: 'pc-sources', 'aria-label': TEXT.sources },
          h('h2', { class: 'pc-sources-title' }, TEXT.sources),
          h('ol', {}, ...message.sources.map(sourceItem)),
        )
      : null
  const rating = bot && isRatable(message) ? ratingGroup(message.id, rate) : null
  const li = h(
    'li',
    { class: `pc-msg ${bot ? 'pc-bot' : 'pc-user'}`, 'data-id': message.id },
    h('span', { class: 'pc-sr' }, `${bot ? TEXT.assistant : TEXT.you}: `),
    text,
    stopped,
    sources,
    rating,
  )
  return { li, text, stopped, rating, drawn: null, drawnChecks: null }
}

function updateText(item: Item, message: VisitorMessage, markdown: Markdown | null): void {
  if (message.sender === 'user' || markdown === null) {
    setText(item.text, message.content)
    return
  }
  if (item.drawn === message.content && item.drawnChecks === message.checks) return
  if (item.drawn === null) item.text.className = 'pc-text pc-md'
  morphChildren(item.text, markdown(message.content, message.checks))
  item.drawn = message.content
  item.drawnChecks = message.checks
}

function updateItem(item: Item, message: VisitorMessage, markdown: Markdown | null): void {
  updateText(item, message, markdown)
  setAttr(item.li, 'aria-busy', message.streaming ? 'true' : false)
  item.stopped.hidden = !message.stopped
  for (const button of item.rating?.querySelectorAll('button') ?? []) {
    setAttr(button, 'aria-pressed', String(button.dataset.feedback === message.feedback))
  }
}

/** Keeps `list` showing `messages`: new ones added, gone ones removed, the rest changed in place. */
export function createMessageList(list: HTMLOListElement, rate: Rate) {
  const items = new Map<string, Item>()
  let markdown: Markdown | null = null
  let loading = false
  let shown: VisitorMessage[] = []
  const loadMarkdown = () => {
    loading = true
    import('./markdown.ts').then(
      (module) => {
        markdown = module.answerNodes
        render(shown)
      },
      // Answers stay plain text; the chat works on.
      (error: unknown) => console.error('Public chat: the markdown renderer did not load', error),
    )
  }
  function render(messages: VisitorMessage[]): void {
    shown = messages
    if (!loading && messages.some((m) => m.sender === 'bot')) loadMarkdown()
    const ids = new Set(messages.map((m) => m.id))
    for (const [id, item] of items) {
      if (!ids.has(id)) {
        item.li.remove()
        items.delete(id)
      }
    }
    let previous: Element | null = null
    for (const message of messages) {
      let item = items.get(message.id)
      if (!item) {
        item = createItem(message, rate)
        items.set(message.id, item)
      }
      updateItem(item, message, markdown)
      const expected: Element | null = previous ? previous.nextElementSibling : list.firstElementChild
      if (expected !== item.li) previous ? previous.after(item.li) : list.prepend(item.li)
      previous = item.li
    }
  }
  return render
}
