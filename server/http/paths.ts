/** Whether a request URL (query string allowed) belongs to an API (the JSON API or the OpenAI-compatible one, D130) rather than the SPA. */
export function isApiUrl(url: string): boolean {
  return startsWithSegment(url, '/api') || startsWithSegment(url, '/openai')
}

function startsWithSegment(url: string, prefix: string): boolean {
  const next = url[prefix.length]
  return url.startsWith(prefix) && (next === undefined || next === '/' || next === '?')
}
