/**
 * The viewer's address for a document, opened at a cited passage when one is given:
 * `/dashboard/documents/{id}?passage={chunkId}` (D72). Its own file, out of paths.ts: only the
 * dashboard's chunks link to documents, and /login carries none of it. In wouter's absolute form
 * (`~/…`): every link to it sits inside the dashboard's nested routes (D106).
 */
export const documentPath = (id: string, passageId?: string | null) =>
  `~/dashboard/documents/${encodeURIComponent(id)}${passageId ? `?${new URLSearchParams({ passage: passageId })}` : ''}`
