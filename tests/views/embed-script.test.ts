/**
 * embed.js's DOM (issue 37): a button in a shadow root and nothing more until it is pressed; the
 * iframe on the script's own origin; the host's token posted to that origin only; Escape closes.
 * And the iframe's side: it hears only its parent, and only the expected shapes.
 */
import { afterEach, expect, test, vi } from 'vitest'
import { install } from '#src/embed/embed.ts'
import { hostMessageOf } from '#src/public/embed-messages.ts'

const ORIGIN = 'https://chat.example.com'

function script(data: Record<string, string>) {
  const element = document.createElement('script')
  element.src = `${ORIGIN}/embed.js`
  Object.assign(element.dataset, data)
  return element
}

function shadow() {
  const host = document.body.lastElementChild as HTMLElement
  const root = host.shadowRoot
  if (!root) throw new Error('no shadow root')
  return { host, root, button: root.querySelector('button.b') as HTMLButtonElement }
}

afterEach(() => document.body.replaceChildren())

test('a chat button in a shadow root, and no iframe until it is pressed', () => {
  install(script({ assistant: 'pub 1', position: 'bottom-left', theme: 'dark' }))
  const { host, root, button } = shadow()

  expect(button.getAttribute('aria-label')).toBe('Open chat')
  expect(root.querySelector('iframe')).toBeNull()
  expect(document.querySelector('iframe')).toBeNull()
  expect(host.dataset).toMatchObject({ position: 'bottom-left', theme: 'dark' })
})

test("pressing opens the chat in an iframe on the script's own origin", () => {
  install(script({ assistant: 'pub 1' }))
  const { root, button } = shadow()

  button.click()

  const frame = root.querySelector('iframe')
  expect(frame?.src).toBe(`${ORIGIN}/embed/pub%201`)
  expect(button.getAttribute('aria-expanded')).toBe('true')
})

test("identify posts the host's token to the iframe's exact origin", () => {
  const api = install(script({ assistant: 'pub-1' }))
  api?.open()
  const frame = shadow().root.querySelector('iframe') as HTMLIFrameElement
  const post = vi.spyOn(frame.contentWindow as Window, 'postMessage').mockImplementation(() => {})

  api?.identify('jwt.of.alice')

  expect(post).toHaveBeenCalledWith({ type: 'docchat:identify', token: 'jwt.of.alice' }, ORIGIN)
})

test('Escape closes the panel and gives focus back to the button', () => {
  const api = install(script({ assistant: 'pub-1' }))
  api?.open()
  const { root, button } = shadow()
  const panel = root.querySelector('.p') as HTMLElement

  root
    .querySelector('.x')
    ?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }))

  expect(panel.hidden).toBe(true)
  expect(root.activeElement).toBe(button)
  expect(button.getAttribute('aria-expanded')).toBe('false')
})

test('without data-assistant nothing is added', () => {
  expect(install(script({}))).toBeNull()
  expect(document.body.childElementCount).toBe(0)
})

test('the iframe takes only the expected shapes from its host', () => {
  expect(hostMessageOf({ type: 'docchat:identify', token: 'jwt' })).toEqual({
    type: 'docchat:identify',
    token: 'jwt',
  })
  expect(hostMessageOf({ type: 'docchat:hello' })).toEqual({ type: 'docchat:hello' })
  expect(hostMessageOf({ type: 'docchat:identify' })).toBeNull()
  expect(hostMessageOf({ type: 'docchat:identify', token: 42 })).toBeNull()
  expect(hostMessageOf('docchat:identify')).toBeNull()
  expect(hostMessageOf({ type: 'other', token: 'jwt' })).toBeNull()
})
