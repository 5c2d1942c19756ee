/**
 * The few HTTP chores the emulator's routes share, on node:http only: read a body, parse a form
 * (or JSON) body, answer JSON, HTML or a redirect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

const MAX_BODY_BYTES = 1_000_000

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw new BodyTooLargeError('request body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Google's OAuth endpoints take form bodies; they also accept JSON, so do we. */
export async function readParams(req: IncomingMessage): Promise<URLSearchParams> {
  const body = (await readBody(req)).toString('utf8')
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json') && body.trim()) {
    const parsed: unknown = JSON.parse(body)
    const params = new URLSearchParams()
    if (parsed && typeof parsed === 'object') {
      for (const [k, v] of Object.entries(parsed)) if (v !== undefined && v !== null) params.set(k, String(v))
    }
    return params
  }
  return new URLSearchParams(body)
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = (await readBody(req)).toString('utf8')
  return body.trim() ? JSON.parse(body) : {}
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body, null, 2)
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(html),
  })
  res.end(html)
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': 0 })
  res.end()
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
