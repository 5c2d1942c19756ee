/** "New chat" asked for the message box: taken by the composer now or when it is next drawn. */
let focusAsked = false

/**
 * "New chat" puts the focus in the message box, ready to type: at once when the chat is on
 * screen, or when its section has been drawn (it loads lazily, after the link was followed).
 */
export function focusMessageBox() {
  focusAsked = true
  requestAnimationFrame(() => takeAskedFocus(document.querySelector('textarea[name="message"]')))
}

/** The composer's message box, drawn: it takes the focus if "New chat" asked for it. */
export function takeAskedFocus(field: HTMLTextAreaElement | null) {
  if (!focusAsked || !field || field.disabled) return
  focusAsked = false
  field.focus()
}
