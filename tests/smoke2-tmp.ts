import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createWorker, OEM } from 'tesseract.js'
import { textImage } from '#tests/fakes/scans.ts'

const require = createRequire(import.meta.url)
const variant = process.argv[2] ?? '4.0.0_best_int'
const data = readFileSync(
  require.resolve('@tesseract.js-data/eng').replace('index.js', `${variant}/eng.traineddata.gz`),
)
const w = await createWorker([{ code: 'eng', data }], OEM.LSTM_ONLY, { cacheMethod: 'none', gzip: true })
const img = await textImage(['Whiteboard: ship Orion on Friday'])
console.log((await w.recognize(img)).data.text)
await w.terminate()
