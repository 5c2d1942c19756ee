/**
 * What the widget's iframe and the host page's embed.js say to each other (issue 37). The iframe
 * takes a message only from its own parent window and only of these shapes; it answers to the
 * exact origin its parent's first message came from, never to '*'.
 */
export const HELLO = 'docchat:hello'
export const IDENTIFY = 'docchat:identify'
export const CLOSE = 'docchat:close'

/** From the host page: the panel opened (`hello`), or the host's signed-in user (`identify`). */
export type HostMessage = { type: typeof HELLO; token?: string } | { type: typeof IDENTIFY; token: string }

export function hostMessageOf(data: unknown): HostMessage | null {
  if (typeof data !== 'object' || data === null) return null
  const { type, token } = data as { type?: unknown; token?: unknown }
  const tokenOk =
    token === undefined || (typeof token === 'string' && token.length > 0 && token.length <= 4000)
  if (type === HELLO && tokenOk) return token === undefined ? { type } : { type, token: token as string }
  if (type === IDENTIFY && typeof token === 'string' && tokenOk) return { type, token }
  return null
}
