/**
 * `npm run fake-model`: the OpenAI-compatible fake the tests use (tests/fakes/openai-compatible.ts),
 * started on its own so a person can watch streamed answers without a paid model. It prints the
 * LLM_* settings to start DocChat with. Every answer is the same paragraph, written word by word:
 * the fake reads neither the question nor the passages, and says so in the answer itself.
 *   FAKE_LLM_PORT (default 4300)  where it listens, on 127.0.0.1
 */
import { startFakeLlm } from '../tests/fakes/openai-compatible.ts'

export const FAKE_MODEL_NAME = 'fake-model'
export const DEFAULT_FAKE_LLM_PORT = 4300

/** What every answer says: what this is, and what to try. Markdown, like a real model's answers. */
export const DEMO_ANSWER = [
  "This answer comes from DocChat's **fake language model** (`npm run fake-model`). It reads",
  'neither your question nor your documents, and it writes these same words every time, one at a',
  'time, so you can watch an answer stream in:',
  '',
  '- press **Stop** while it is being written: what arrived so far is kept, marked "Stopped";',
  '- press **Regenerate** under the last answer to have it written again.',
  '',
  'The passage of your documents that DocChat ranked first for your question is cited here [1]:',
  'press the marker to read it. With no documents there is nothing to cite, and the marker goes.',
  'For real answers, point LLM_BASE_URL, LLM_API_KEY and LLM_MODEL at an OpenAI-compatible endpoint.',
].join('\n')

const port = Number(process.env.FAKE_LLM_PORT ?? DEFAULT_FAKE_LLM_PORT)
const fake = await startFakeLlm({ port })
// Slow enough to see it stream (about 12 words a second), quick enough not to bore.
fake.reply({ kind: 'text', text: DEMO_ANSWER, firstTokenDelayMs: 600, tokenDelayMs: 80 })

console.log(`Fake OpenAI-compatible model at ${fake.baseUrl}. Start DocChat with it, in another terminal:`)
console.log('')
console.log(`  LLM_BASE_URL=${fake.baseUrl} LLM_MODEL=${FAKE_MODEL_NAME} npm start`)
console.log('')
console.log('Ctrl-C stops it.')

async function shutdown() {
  await fake.close()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
