/**
 * The SMTP capture on its own (e2e runs, trying mail by hand): SMTP on SMTP_CAPTURE_PORT (default
 * 2525) and, one port above, `GET /messages?to=EMAIL` answering what was received as JSON.
 */
import { createServer } from 'node:http'
import { createSmtpCapture } from './smtp-capture.ts'

const port = Number(process.env.SMTP_CAPTURE_PORT ?? 2525)
const capture = await createSmtpCapture({ port })
const http = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost')
  if (url.pathname === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    return
  }
  if (url.pathname !== '/messages') {
    response.writeHead(404).end()
    return
  }
  const to = url.searchParams.get('to')?.toLowerCase()
  const found = capture.messages.filter((m) => !to || m.to.some((t) => t.toLowerCase() === to))
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: found }))
})
http.listen(port + 1, '127.0.0.1', () => {
  console.log(`SMTP_URL=${capture.url}  (received mail: http://127.0.0.1:${port + 1}/messages)`)
})
const stop = () => {
  http.close()
  void capture.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
