/**
 * The public chat's entry (public.html, D120), served at /a/{publicId} (the public page) and
 * /embed/{publicId} (the widget's iframe): it reads which from the address, starts the machine
 * with the visitor's calls, and draws. In the widget it listens to its parent page only.
 */
import { createActor } from 'xstate'
import { providePublicChatMachine } from '#machines/public-chat/public-chat-actor.ts'
import { createPublicAssistantApi } from '#src/api/public-assistant.ts'
import { CLOSE, hostMessageOf } from './embed-messages.ts'
import { mountPublicChat, type PublicChatActor } from './public-chat-view.ts'
import './public.css'

export type Place = { mode: 'page' | 'embed'; publicId: string }

export function placeOf(pathname: string): Place | null {
  const match = /^\/(a|embed)\/([^/]{1,64})\/?$/.exec(pathname)
  if (!match?.[2]) return null
  return { mode: match[1] === 'a' ? 'page' : 'embed', publicId: decodeURIComponent(match[2]) }
}

/** The widget hears its parent page: the host's token, and where to say "close". */
export function listenToHost(actor: PublicChatActor, parent: Window): { close: () => void } {
  let parentOrigin: string | null = null
  window.addEventListener('message', (event) => {
    if (event.source !== parent || parent === window) return
    const message = hostMessageOf(event.data)
    if (!message) return
    parentOrigin ??= event.origin
    if (event.origin !== parentOrigin) return
    if (message.token) actor.send({ type: 'public.identify', token: message.token })
  })
  return { close: () => parentOrigin && parent.postMessage({ type: CLOSE }, parentOrigin) }
}

export function startPublicChat(root: HTMLElement, place: Place): PublicChatActor {
  const api = createPublicAssistantApi(place.publicId)
  const machine = providePublicChatMachine({
    getAssistant: api.getAssistant,
    getConversation: api.getConversation,
    ask: api.ask,
    feedback: api.feedback,
    log: console,
  })
  const actor = createActor(machine, { input: {} })
  const host = place.mode === 'embed' ? listenToHost(actor, window.parent) : null
  document.documentElement.dataset.mode = place.mode
  const theme = new URLSearchParams(location.search).get('theme')
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme
  actor.start()
  mountPublicChat(root, actor, {
    challengeUrl: `/api/v1/public/assistants/${encodeURIComponent(place.publicId)}/challenge`,
    onEscape: host?.close,
  })
  return actor
}

const root = document.getElementById('root')
const place = placeOf(location.pathname)
if (root && place) startPublicChat(root, place)
else if (root) root.textContent = 'This assistant is not available.'
