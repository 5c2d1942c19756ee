/**
 * The owner's proof of work (ALTCHA, issue 37), loaded only for an assistant that asks for one:
 * the widget and its workers are a chunk of their own, never part of the page's first load. Its
 * solution is handed to `onSolved` (the machine sends it with the first question).
 */
import { h } from './dom.ts'

type StateChange = CustomEvent<{ state?: string; payload?: string }>

export function mountChallenge(slot: HTMLElement, challengeUrl: string, onSolved: (payload: string) => void) {
  const widget = h('altcha-widget', { challenge: challengeUrl, name: 'challenge', auto: 'off' })
  widget.addEventListener('statechange', (event) => {
    const { state, payload } = (event as StateChange).detail ?? {}
    if (state === 'verified' && payload) onSolved(payload)
  })
  slot.replaceChildren(widget)
  // Defining the element upgrades the one already in place.
  import('altcha').catch((error: unknown) =>
    console.error('Public chat: loading the challenge failed', error),
  )
}
