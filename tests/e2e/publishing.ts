/**
 * What the publishing e2e files share (issue 37): the owner's assistant over one uploaded
 * document with a starter question, and a host site on another loopback origin whose page
 * includes embed.js as the Publish panel shows it. Host sites listen on E2E_PORT + 90 and up, so
 * two runs on their own E2E_PORTs never meet.
 */
import { createServer, type Server } from 'node:http'
import { expect, type Page } from '@playwright/test'

export const STARTER = 'How many days of annual leave do staff get?'
export const FACT = 'Staff get 27 days of annual leave a year, plus public holidays.'
// Uploads are at least 10 KB: the fact, then unrelated office notes.
const DOCUMENT = [
  FACT,
  ...Array.from(
    { length: 160 },
    (_, i) => `Note ${i + 1}: the kitchen on floor ${(i % 5) + 1} is cleaned on Friday afternoons.`,
  ),
].join('\n\n')

/** The `n`th host site's port (0, 1, …): above the app's own, clear of the other ports the config derives. */
export function hostPort(n: number): number {
  return Number(process.env.E2E_PORT ?? 3100) + 90 + n
}

/** A host site: one page that includes the embed script, as the Publish panel shows it. */
export function hostSite(port: number, appBase: string, publicId: string): Promise<Server> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host ${port}</title></head>
<body><main><h1>A host site on port ${port}</h1><p>The chat button is in the corner.</p></main>
<script src="${appBase}/embed.js" data-assistant="${publicId}" async></script></body></html>`
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}

/** The owner's assistant over one uploaded text document, with a starter question. */
export async function assistantWithDocument(page: Page): Promise<string> {
  const upload = await page.request.post('/api/v1/documents/upload', {
    multipart: {
      file: { name: 'leave-policy.txt', mimeType: 'text/plain', buffer: Buffer.from(DOCUMENT) },
    },
  })
  expect(upload.status(), await upload.text()).toBe(201)
  const documentId = (await upload.json()).data.id as string
  await expect
    .poll(
      async () => {
        const library = await (await page.request.get('/api/v1/documents')).json()
        return library.data.documents.find((d: { id: string }) => d.id === documentId)?.status
      },
      { timeout: 60_000 },
    )
    .toBe('ready')
  const created = await page.request.post('/api/v1/assistants', {
    data: {
      name: 'Leave bot',
      description: 'Answers questions about leave.',
      knowledge: { documentIds: [documentId], folderIds: [] },
      starterQuestions: [STARTER],
    },
  })
  expect(created.status()).toBe(201)
  return (await created.json()).data._id as string
}
