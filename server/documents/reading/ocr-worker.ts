/**
 * The worker thread tesseract.js runs Tesseract in, inside the reader process (ocr.ts): the
 * package's own Node worker script, with two changes. Language data arrives as bytes, and
 * tesseract.js 7.0.0 then names the languages by their bytes instead of their codes when it
 * initialises Tesseract (`l.data` for `l.code`): here they are named by their codes. And the
 * worker is given no way to fetch: nothing it needs is on the network, and asking is a bug.
 */
import { createRequire } from 'node:module'
import { parentPort } from 'node:worker_threads'

type Packet = { action: string; payload?: { langs?: unknown } }

const require = createRequire(import.meta.url)
const worker = require('tesseract.js/src/worker-script/index.js') as {
  dispatchHandlers(packet: Packet, send: (message: unknown) => void): void
  setAdapter(adapter: Record<string, unknown>): void
}

parentPort?.on('message', (packet: Packet) => {
  const langs = packet.payload?.langs
  if (packet.action === 'initialize' && Array.isArray(langs)) {
    packet.payload = {
      ...packet.payload,
      langs: langs.map((l: string | { code: string }) => (typeof l === 'string' ? l : l.code)),
    }
  }
  worker.dispatchHandlers(packet, (message) => parentPort?.postMessage(message))
})

worker.setAdapter({
  getCore: require('tesseract.js/src/worker-script/node/getCore.js'),
  gunzip: require('tesseract.js/src/worker-script/node/gunzip.js'),
  ...require('tesseract.js/src/worker-script/node/cache.js'),
  fetch: () => Promise.reject(new Error('the OCR worker fetches nothing')),
})
