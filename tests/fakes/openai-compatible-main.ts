/**
 * The OpenAI-compatible fake as a process of its own, for e2e runs and benchmarks: listens on
 * FAKE_LLM_PORT and streams what it was last told through `POST /__fake/reply` (a Reply as JSON,
 * e.g. `{"kind":"text","text":"…","firstTokenDelayMs":200,"tokenDelayMs":30}`).
 */
import { startFakeLlm } from './openai-compatible.ts'

const fake = await startFakeLlm({ port: Number(process.env.FAKE_LLM_PORT ?? 4300) })
console.log(`Fake OpenAI-compatible model at ${fake.baseUrl}`)

async function shutdown() {
  await fake.close()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
