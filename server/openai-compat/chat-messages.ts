/**
 * A chat-completions request's messages read as DocChat asks (D130): the last user message is the
 * question, the user and assistant turns before it are the history, and every system (or
 * developer) message is the program's own instructions, which the prompt places after the
 * server's rules and the assistant's instructions (answering/prompt.ts), never instead. Text
 * only; control characters are dropped, as from a model (nothing here is stored).
 */
import { type ChatMessage, MAX_QUESTION_CHARACTERS, MAX_TOTAL_CHARACTERS } from '#contracts/openai.ts'
import { withoutControlCharacters } from '#contracts/user-text.ts'
import type { Turn } from '../documents/index/passages.ts'
import { invalidRequest } from './openai-errors.ts'

export type ReadMessages = { question: string; history: Turn[]; instructions: string }

/** A message's text: a string, or its text parts joined; an image or audio part is refused. */
function textOf(message: ChatMessage, index: number): string {
  const { content } = message
  if (content === undefined || content === null) return ''
  if (typeof content === 'string') return withoutControlCharacters(content)
  return content
    .map((part, p) => {
      if (part.type !== 'text' || typeof part.text !== 'string')
        throw invalidRequest(
          `messages[${index}].content[${p}]: only text parts are supported, not "${part.type}".`,
          `messages[${index}].content[${p}].type`,
        )
      return withoutControlCharacters(part.text)
    })
    .join('\n')
}

export function readMessages(messages: readonly ChatMessage[]): ReadMessages {
  const texts = messages.map(textOf)
  const total = texts.reduce((sum, text) => sum + text.length, 0)
  if (total > MAX_TOTAL_CHARACTERS)
    throw invalidRequest(
      `messages: at most ${MAX_TOTAL_CHARACTERS} characters in all (these have ${total}).`,
      'messages',
    )
  const last = messages.findLastIndex((m) => m.role === 'user')
  if (last === -1) throw invalidRequest('messages must hold a user message: the question.', 'messages')
  const after = messages.findIndex((m, i) => i > last && m.role === 'assistant')
  if (after !== -1)
    throw invalidRequest(
      `messages[${after}]: the last user message is the question, so no assistant message may follow it.`,
      `messages[${after}].role`,
    )
  const question = (texts[last] ?? '').trim()
  if (!question)
    throw invalidRequest(`messages[${last}].content: the question is empty.`, `messages[${last}].content`)
  if (question.length > MAX_QUESTION_CHARACTERS)
    throw invalidRequest(
      `messages[${last}].content: the question may be at most ${MAX_QUESTION_CHARACTERS} characters.`,
      `messages[${last}].content`,
    )
  const history: Turn[] = []
  const instructions: string[] = []
  messages.forEach((m, i) => {
    const text = (texts[i] ?? '').trim()
    if (!text || i === last) return
    if (m.role === 'system' || m.role === 'developer') instructions.push(text)
    else if (i < last) history.push({ isUser: m.role === 'user', content: text })
  })
  return { question, history, instructions: instructions.join('\n\n') }
}
