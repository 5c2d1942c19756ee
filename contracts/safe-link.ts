/**
 * Links that come from data (Drive's webViewLink / webContentLink, a source's link) are opened
 * or rendered as `href` only when they are https: a `javascript:` or `data:` link from a hostile
 * or broken upstream must never run in our origin (D37). The server drops anything else
 * at the boundary, and the views check again before rendering or opening.
 */
export function safeExternalLink(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null
  return value
}

/**
 * A link a model wrote in an answer, kept only when it leads to a web page (http or https, no
 * credentials): `javascript:`, `data:`, `mailto:` and relative links (which would resolve to our
 * own origin) are dropped, and the link's words stay as text.
 */
export function safeWebLink(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  const web = url.protocol === 'https:' || url.protocol === 'http:'
  return web && url.username === '' && url.password === '' ? url.href : null
}
