/**
 * Changes what an element shows into freshly made nodes while keeping every node that is still the
 * same kind in the same place (D123): an answer is drawn anew from its markdown at every token,
 * and this turns that into the few changes the token made (the last text node grows, a new item
 * is added), so nothing flickers and a selection or a focused link survives the stream.
 */
const TEXT_NODE = 3
const ELEMENT_NODE = 1

function syncAttributes(current: Element, next: Element): void {
  for (const { name } of [...current.attributes]) if (!next.hasAttribute(name)) current.removeAttribute(name)
  for (const { name, value } of [...next.attributes])
    if (current.getAttribute(name) !== value) current.setAttribute(name, value)
}

export function morphChildren(parent: Element, next: readonly Node[]): void {
  const current = [...parent.childNodes]
  next.forEach((node, i) => {
    const old = current[i]
    if (!old) parent.append(node)
    else if (old.nodeType !== node.nodeType || old.nodeName !== node.nodeName) old.replaceWith(node)
    else if (old.nodeType === TEXT_NODE) {
      if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue
    } else if (old.nodeType === ELEMENT_NODE) {
      syncAttributes(old as Element, node as Element)
      morphChildren(old as Element, [...node.childNodes])
    }
  })
  for (const extra of current.slice(next.length)) parent.removeChild(extra)
}
