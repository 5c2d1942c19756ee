/**
 * The public chat draws with the DOM itself (D120: React alone is over its 60 KB): elements are
 * made here with their text as text, never as HTML, so nothing a model, a document or an owner
 * wrote can become markup.
 */
type Attrs = Record<string, string | boolean | undefined>

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) setAttr(element, name, value)
  for (const child of children) if (child !== null) element.append(child)
  return element
}

/** `false` and `undefined` remove the attribute; `true` sets it empty. */
export function setAttr(element: Element, name: string, value: string | boolean | undefined): void {
  if (value === false || value === undefined) element.removeAttribute(name)
  else element.setAttribute(name, value === true ? '' : value)
}

export function setText(element: Element, text: string): void {
  if (element.textContent !== text) element.textContent = text
}
