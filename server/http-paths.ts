/** Whether a path (no query string) belongs to the JSON API rather than the SPA. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/')
}
