/** Whether a request URL (query string allowed) belongs to the JSON API rather than the SPA. */
export function isApiUrl(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?')
}
