/**
 * What the language model is told: a system prompt that keeps it to the user's documents, the
 * retrieved passages numbered with their documents, and the last turns of this conversation.
 */
import { type Passage, passageLabel, type Turn } from '../documents/index/passages.ts'

export const MAX_HISTORY_TURNS = 10
/** Bounds the prompt whatever the conversation's length (roughly 6k tokens of history). */
export const MAX_HISTORY_CHARS = 24_000

export type ChatPromptMessage = { role: 'system' | 'user' | 'assistant'; content: string }

export const SYSTEM_PROMPT = [
  'You are DocChat, an assistant that helps a person with their own documents and with general questions.',
  'When the numbered passages below are relevant, answer from them and cite them as [1], [2] after the sentences they support.',
  'If the passages do not contain the answer, say so plainly, then answer from general knowledge only if you can, and say that you did.',
  'Never invent document content, names or citations. Be concise.',
].join(' ')

/** Said before the passages of a conversation limited to chosen documents (D70, D71). */
export const SCOPED_CONTEXT = 'The person limited this conversation to the documents below.'
export const WHOLE_CONTEXT =
  'They are given whole, in reading order, split into numbered passages: answer from them, even when a question does not name what it is about.'

export function buildPrompt(
  question: string,
  passages: Passage[],
  history: Turn[],
  { scoped = false }: { scoped?: boolean } = {},
): ChatPromptMessage[] {
  const whole = passages.some((p) => p.whole)
  const context =
    passages.length === 0
      ? 'No passages of the user’s documents matched this question.'
      : passages
          .map((p, i) => `[${i + 1}] ${passageLabel(p)}${p.heading ? ` — ${p.heading}` : ''}\n${p.text}`)
          .join('\n\n')
  const intro = [scoped ? SCOPED_CONTEXT : null, whole ? WHOLE_CONTEXT : null].filter(Boolean).join(' ')
  return [
    {
      role: 'system',
      content: `${SYSTEM_PROMPT}\n\n${intro ? `${intro}\n\n` : ''}Passages from the user’s documents:\n\n${context}`,
    },
    ...recentTurns(history).map(
      (t): ChatPromptMessage => ({ role: t.isUser ? 'user' : 'assistant', content: t.content }),
    ),
    { role: 'user', content: question },
  ]
}

/** The newest turns that fit, oldest first. */
export function recentTurns(history: Turn[]): Turn[] {
  const picked: Turn[] = []
  let chars = 0
  for (const turn of history.slice(-MAX_HISTORY_TURNS).reverse()) {
    chars += turn.content.length
    if (chars > MAX_HISTORY_CHARS) break
    picked.unshift(turn)
  }
  return picked
}
