/**
 * embed.js (issue 37, D120): `<script src="{PUBLIC_URL}/embed.js" data-assistant="{publicId}"
 * async>` puts a chat button on the host page, inside a shadow root so the page's CSS and ours
 * never meet, and loads nothing more until it is pressed; then the chat opens in an iframe of
 * our own origin (the script's), /embed/{publicId}. The host may pass its signed-in user's token
 * (`data-user-token`, DocChat.identify) — posted to that iframe's exact origin only. Plain DOM, no
 * imports: it is built on its own and stays under 3 KB gz.
 */
const HELLO = 'docchat:hello'
const IDENTIFY = 'docchat:identify'
const CLOSE = 'docchat:close'

const STYLE = `:host{all:initial;position:fixed;bottom:20px;z-index:2147483000;color-scheme:light dark;font:15px/1.4 system-ui,sans-serif}
:host([data-position=bottom-right]){right:20px}:host([data-position=bottom-left]){left:20px}
.b{width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:#2852d8;color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}
.b:focus-visible,.x:focus-visible{outline:3px solid #3b6cf6;outline-offset:3px}
.p{position:absolute;bottom:68px;width:min(380px,calc(100vw - 40px));height:min(600px,calc(100vh - 110px));border-radius:12px;overflow:hidden;box-shadow:0 8px 30px rgba(0,0,0,.3);background:#fff;display:flex;flex-direction:column}
:host([data-position=bottom-right]) .p{right:0}:host([data-position=bottom-left]) .p{left:0}
.p[hidden]{display:none}.h{display:flex;justify-content:flex-end;background:#f1f3f8}
.x{border:0;background:none;cursor:pointer;font:inherit;padding:6px 12px;color:#1c2233}
iframe{flex:1;border:0;width:100%}
@media (prefers-color-scheme:dark){:host(:not([data-theme=light])) .b{background:#8fb0ff;color:#0b1020}:host(:not([data-theme=light])) .p,:host(:not([data-theme=light])) .h{background:#171c2c}:host(:not([data-theme=light])) .x{color:#e7eaf3}}
:host([data-theme=dark]) .b{background:#8fb0ff;color:#0b1020}:host([data-theme=dark]) .p,:host([data-theme=dark]) .h{background:#171c2c}:host([data-theme=dark]) .x{color:#e7eaf3}`

const ICON =
  '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>'

export type DocChatApi = { open: () => void; close: () => void; identify: (token: string) => void }

export function install(script: HTMLScriptElement, doc: Document = document): DocChatApi | null {
  const publicId = script.dataset.assistant
  if (!publicId) return null
  const origin = new URL(script.src, doc.baseURI).origin
  const theme = ['light', 'dark'].includes(script.dataset.theme ?? '')
    ? (script.dataset.theme as string)
    : 'auto'
  let token = script.dataset.userToken ?? ''
  const host = doc.createElement('div')
  host.dataset.position = script.dataset.position === 'bottom-left' ? 'bottom-left' : 'bottom-right'
  host.dataset.theme = theme
  const root = host.attachShadow({ mode: 'open' })
  root.innerHTML = `<style>${STYLE}</style><div class="p" id="p" role="dialog" aria-label="Chat" hidden></div><button class="b" type="button" aria-expanded="false" aria-controls="p" aria-label="Open chat">${ICON}</button>`
  const panel = root.querySelector('.p') as HTMLElement
  const button = root.querySelector('.b') as HTMLButtonElement
  let frame: HTMLIFrameElement | null = null

  const post = (message: object) => frame?.contentWindow?.postMessage(message, origin)
  const open = () => {
    if (!frame) {
      frame = doc.createElement('iframe')
      frame.title = 'Chat'
      frame.src = `${origin}/embed/${encodeURIComponent(publicId)}${theme === 'auto' ? '' : `?theme=${theme}`}`
      frame.addEventListener('load', () => post(token ? { type: HELLO, token } : { type: HELLO }))
      const close = doc.createElement('button')
      close.className = 'x'
      close.type = 'button'
      close.textContent = 'Close chat'
      close.addEventListener('click', () => hide())
      const bar = doc.createElement('div')
      bar.className = 'h'
      bar.append(close)
      panel.append(bar, frame)
    }
    panel.hidden = false
    button.setAttribute('aria-expanded', 'true')
    button.setAttribute('aria-label', 'Close chat')
    frame.focus()
  }
  const hide = () => {
    if (panel.hidden) return
    panel.hidden = true
    button.setAttribute('aria-expanded', 'false')
    button.setAttribute('aria-label', 'Open chat')
    button.focus()
  }
  button.addEventListener('click', () => (panel.hidden ? open() : hide()))
  root.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape') hide()
  })
  doc.defaultView?.addEventListener('message', (event) => {
    if (
      frame &&
      event.source === frame.contentWindow &&
      event.origin === origin &&
      event.data?.type === CLOSE
    )
      hide()
  })
  doc.body.append(host)
  return {
    open,
    close: hide,
    identify(next: string) {
      token = String(next)
      post({ type: IDENTIFY, token })
    },
  }
}

const current = document.currentScript
if (current instanceof HTMLScriptElement) {
  const api = install(current)
  if (api) (window as unknown as { DocChat: DocChatApi }).DocChat = api
}
