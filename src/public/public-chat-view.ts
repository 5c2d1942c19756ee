/**
 * The public chat's screen (issue 37): the assistant's name and description, the owner's privacy
 * line above the first message, starter questions as buttons, the conversation, the composer with
 * Stop, and New conversation. It renders the machine's snapshots and sends it named intents; the
 * machine decides (D120). Keyboard: Enter sends, Shift+Enter starts a line, Escape stops an answer
 * (or, in the widget, asks the host page to close it).
 */
import type { Actor } from 'xstate'
import { isBusy, type PublicChatSnapshot } from '#machines/public-chat/public-chat-actor.ts'
import type { publicChatMachine } from '#machines/public-chat/public-chat-machine.ts'
import { needsChallenge } from '#machines/public-chat/public-chat-model.ts'
import { mountChallenge } from './challenge.ts'
import { h, setText } from './dom.ts'
import { createMessageList } from './message-list.ts'
import { TEXT } from './texts.ts'

export type PublicChatActor = Actor<typeof publicChatMachine>
export type ViewOptions = { challengeUrl: string; onEscape?: () => void }

function skeleton() {
  const title = h('h1', { id: 'pc-title', class: 'pc-title' }, TEXT.loading)
  const description = h('p', { class: 'pc-desc' })
  const newButton = h('button', { type: 'button', class: 'pc-new', hidden: true }, TEXT.newConversation)
  const privacy = h('p', { class: 'pc-privacy', hidden: true })
  const list = h('ol', { class: 'pc-messages' })
  const log = h(
    'div',
    { class: 'pc-log', role: 'log', 'aria-live': 'polite', 'aria-label': TEXT.conversation },
    privacy,
    list,
  )
  const starters = h('div', {
    class: 'pc-starters',
    role: 'group',
    'aria-label': TEXT.suggested,
    hidden: true,
  })
  const notice = h('p', { class: 'pc-notice', role: 'alert' })
  const challengeWidget = h('div', { class: 'pc-challenge-widget' })
  const challenge = h(
    'div',
    { class: 'pc-challenge', hidden: true },
    h('p', {}, TEXT.challenge),
    challengeWidget,
  )
  const input = h('textarea', {
    id: 'pc-input',
    class: 'pc-input',
    rows: '2',
    maxlength: '2000',
    placeholder: TEXT.placeholder,
    autocomplete: 'off',
  })
  const send = h('button', { type: 'submit', class: 'pc-send' }, TEXT.send)
  const stop = h('button', { type: 'button', class: 'pc-stop', hidden: true }, TEXT.stop)
  const form = h(
    'form',
    { class: 'pc-composer', hidden: true },
    h('label', { for: 'pc-input', class: 'pc-sr' }, TEXT.question),
    input,
    send,
    stop,
  )
  const status = h('p', { class: 'pc-sr', role: 'status' })
  const main = h(
    'main',
    { class: 'pc', 'aria-labelledby': 'pc-title' },
    h('header', { class: 'pc-head' }, h('div', {}, title, description), newButton),
    log,
    starters,
    notice,
    challenge,
    form,
    status,
  )
  return {
    main,
    title,
    description,
    newButton,
    privacy,
    list,
    log,
    starters,
    notice,
    challenge,
    challengeWidget,
    input,
    send,
    stop,
    form,
    status,
  }
}

type Parts = ReturnType<typeof skeleton>

function wire(parts: Parts, actor: PublicChatActor, options: ViewOptions): void {
  const { input, form, stop, newButton } = parts
  input.addEventListener('input', () => actor.send({ type: 'public.type', text: input.value }))
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault()
      form.requestSubmit()
    }
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    actor.send({ type: 'public.send' })
  })
  stop.addEventListener('click', () => {
    actor.send({ type: 'public.stop' })
    input.focus()
  })
  newButton.addEventListener('click', () => {
    actor.send({ type: 'public.new' })
    input.focus()
  })
  parts.main.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    if (actor.getSnapshot().context.sending) actor.send({ type: 'public.stop' })
    else options.onEscape?.()
  })
}

function renderStarters(parts: Parts, actor: PublicChatActor, questions: string[], show: boolean): void {
  parts.starters.hidden = !show || questions.length === 0
  if (parts.starters.childElementCount === questions.length) return
  parts.starters.replaceChildren(
    ...questions.map((question) => {
      const button = h('button', { type: 'button', class: 'pc-starter' }, question)
      button.addEventListener('click', () => {
        actor.send({ type: 'public.send', content: question })
        parts.input.focus()
      })
      return button
    }),
  )
}

export function mountPublicChat(root: HTMLElement, actor: PublicChatActor, options: ViewOptions): () => void {
  const parts = skeleton()
  const renderMessages = createMessageList(parts.list, (messageId, feedback) =>
    actor.send({ type: 'public.rate', messageId, feedback }),
  )
  wire(parts, actor, options)
  root.replaceChildren(parts.main)
  let challengeShown = false

  function render(snapshot: PublicChatSnapshot): void {
    const { context } = snapshot
    if (snapshot.matches('unavailable')) {
      setText(parts.title, context.loadError ?? TEXT.notFound)
      return
    }
    const { assistant } = context
    if (!assistant) return
    const busy = isBusy(snapshot)
    const empty = context.messages.length === 0
    setText(parts.title, assistant.name)
    setText(parts.description, assistant.description)
    document.title = assistant.name
    parts.privacy.hidden = assistant.privacyNotice === ''
    setText(parts.privacy, assistant.privacyNotice)
    parts.newButton.hidden = empty
    parts.newButton.disabled = busy
    parts.form.hidden = false
    renderStarters(parts, actor, assistant.starterQuestions, empty && !busy)
    renderMessages(context.messages)
    setText(parts.notice, context.answerNotice ?? context.notice ?? '')
    if (parts.input.value !== context.draft) parts.input.value = context.draft
    const locked = needsChallenge(assistant, context.challengePassed) && context.challenge === null
    parts.send.disabled = busy || locked || context.draft.trim() === ''
    parts.stop.hidden = !context.sending
    parts.send.hidden = context.sending
    setText(parts.status, context.sending ? TEXT.writing : '')
    parts.challenge.hidden = !locked
    if (locked && !challengeShown) {
      mountChallenge(parts.challengeWidget, options.challengeUrl, (payload) =>
        actor.send({ type: 'public.challengeSolved', payload }),
      )
      challengeShown = true
    }
    if (!locked) challengeShown = false
  }

  const subscription = actor.subscribe(render)
  render(actor.getSnapshot())
  return () => subscription.unsubscribe()
}
