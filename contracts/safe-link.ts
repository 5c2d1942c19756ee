/**
 * Links that come from data (Drive's webViewLink / webContentLink, a source's link) are opened
 * or rendered as `href` only when they are https: a `javascript:` or `data:` link from a hostile
 * or broken upstream must never run in our origin (D37). The server drops anything else
 * at the boundary, and the views check again before rendering or opening.
 */
export function safeExternalLink(value: unknown): string | null {
  const url = parsedWithoutCredentials(value)
  return url?.protocol === 'https:' ? (value as string) : null
}

/**
 * A link a model wrote in an answer, kept only when it leads to a web page (http or https, no
 * credentials): `javascript:`, `data:`, `mailto:` and relative links (which would resolve to our
 * own origin) are dropped, and the link's words stay as text.
 */
export function safeWebLink(value: unknown): string | null {
  const url = parsedWithoutCredentials(value)
  return url?.protocol === 'https:' || url?.protocol === 'http:' ? url.href : null
}

/** An absolute URL that carries no user name or password; null for anything else. */
function parsedWithoutCredentials(value: unknown): URL | null {
  if (typeof value !== 'string' || value === '') return null
  try {
    const url = new URL(value)
    return url.username === '' && url.password === '' ? url : null
  } catch {
    return null
  }
}
