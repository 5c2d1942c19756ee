/**
 * The URL of a `file` call (a document's file, an exported conversation): the browser opens or
 * downloads it as it is (a link, `download`, pdf.js), so it never goes through the JSON client.
 * Kept out of client.ts: only the lazily loaded screens that link to files carry it.
 */
import { fillPath } from '#contracts/endpoint.ts'

export function fileUrl(
  endpoint: { path: string; kind: 'file' },
  params: Record<string, string>,
  query?: Record<string, string>,
): string {
  const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''
  return `${fillPath(endpoint.path, params)}${search}`
}
