/**
 * Writing one answer into a stream (chat-service.ts opens it): the model's words go to the sink
 * as they come, with the passages they may cite; at the end the answer is stored (a stopped one
 * with what had arrived, D20), or the run ends with a sentence. The claim on the conversation is
 * released however it ends.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { SendMessageResponse, Source } from '#contracts/chat.ts'
import type { AnswerDraft } from '../answering/answer-shapes.ts'
import { judgedDraft } from '../answering/citation-judge.ts'
import { LlmAbortedError, LlmUnavailableError } from '../answering/llm.ts'
import type { TokenUsage } from '../answering/token-usage.ts'
import type { StoredCheck } from '../db/schema.ts'
import { toSourceDto, toSourceSnapshot } from './chat-dto.ts'
import { ANSWER_FAILED, CONVERSATION_NOT_FOUND, STOPPED_BEFORE_ANSWER } from './chat-errors.ts'

/** Where a streamed answer goes while it is written. */
export type StreamSink = { token(text: string): void; sources(sources: Source[]): void }

/** How a streamed answer ended: what `send` would have returned, or a sentence. */
export type StreamOutcome =
  | { event: 'done'; data: SendMessageResponse }
  | { event: 'error'; data: { message: string } }

/** A streamed answer, checked and claimed: run it once. */
export type AnswerRun = (sink: StreamSink, signal: AbortSignal) => Promise<StreamOutcome>

/** Stores the finished answer; null when the conversation is gone. */
export type StoreAnswer = (
  text: string,
  sources: ReturnType<typeof toSourceSnapshot>[],
  stopped: boolean,
  checks: StoredCheck[] | null,
) => Promise<SendMessageResponse | null>

type RunContext = {
  release: () => Promise<void>
  log: FastifyBaseLogger
  conversationId: string
  draft: AnswerDraft
  store: StoreAnswer
  /** Records what the stored answer spent (usage, D126), with what its judge spent (D140). */
  record: (text: string, judge: TokenUsage | null) => Promise<void>
}

/** After `after`, even on a coarse or frozen clock, so the order of messages is certain. */
export const strictlyAfter = (t: Date, after: Date) => new Date(Math.max(t.getTime(), after.getTime() + 1))

export function runOnce({ release, log, conversationId, draft, store, record }: RunContext): AnswerRun {
  return async (sink, signal) => {
    const started = performance.now()
    try {
      const written = await writeTokens(draft, sink, signal, log, conversationId)
      if ('event' in written) return written
      const stopped = signal.aborted
      const text = written.text.trim()
      if (text.length === 0) {
        return { event: 'error', data: { message: stopped ? STOPPED_BEFORE_ANSWER : ANSWER_FAILED } }
      }
      // After the last token, before the answer is stored and `done` is sent (D129).
      const checked = draft.finish(text, stopped)
      logUnchecked(log, conversationId, checked)
      // The model judge, when on, within its bound: the verdicts are stored and sent with the answer (D140).
      const finished = await judgedDraft(draft, checked, signal)
      logUnjudged(log, conversationId, finished)
      const used = finished.sources
      const stored = await store(finished.content, used.map(toSourceSnapshot), stopped, finished.checks)
      // Deleted while the assistant was writing: nothing was stored, the conversation is gone.
      if (!stored) return { event: 'error', data: { message: CONVERSATION_NOT_FOUND } }
      // Stored, so spent: a failure to count it is logged, never the person's answer lost.
      await record(text, finished.judgeUsage).catch((error: unknown) =>
        log.error({ event: 'usage.record-failed', err: error, conversationId }, 'recording usage failed'),
      )
      sink.sources(stored.aiMessage.sources)
      logAnswered(log, conversationId, used.length, started, stopped, finished.checkMs, finished.judgeMs)
      return { event: 'done', data: stored }
    } catch (error) {
      log.error({ event: 'chat.answer.failed', err: error, conversationId }, 'answer failed')
      return { event: 'error', data: { message: ANSWER_FAILED } }
    } finally {
      await release()
    }
  }
}

/** The model's words into the sink until it ends or is stopped: the text, or how it failed. */
async function writeTokens(
  draft: AnswerDraft,
  sink: StreamSink,
  signal: AbortSignal,
  log: FastifyBaseLogger,
  conversationId: string,
): Promise<{ text: string } | StreamOutcome> {
  let text = ''
  let announced = false
  try {
    for await (const token of draft.tokens(signal)) {
      // With the first word, the passages its markers may name: the browser shows each [n]
      // as a citation the moment it is written, not only once the answer is complete.
      if (!announced) sink.sources(draft.candidates().map((p) => toSourceDto(toSourceSnapshot(p))))
      announced = true
      text += token
      sink.token(token)
      if (signal.aborted) break
    }
  } catch (error) {
    if (error instanceof LlmUnavailableError) {
      log.warn({ event: 'chat.llm.unavailable', err: error, conversationId }, 'language model unavailable')
      return { event: 'error', data: { message: error.message } }
    }
    if (!(error instanceof LlmAbortedError)) {
      log.error({ event: 'chat.answer.failed', err: error, conversationId }, 'answer failed')
      return { event: 'error', data: { message: ANSWER_FAILED } }
    }
  }
  return { text }
}

/**
 * Stopped before the model wrote anything (during the rewrite, say): a draft with no words, so
 * the run ends as any answer stopped before its first word does (D20: nothing is stored).
 */
const NOTHING_WRITTEN: AnswerDraft = {
  candidates: () => [],
  async *tokens() {},
  sourcesFor: () => [],
  finish: (content) => ({ content, sources: [], checks: [], checkMs: 0 }),
  corrections: [],
  spent: () => null,
}

export async function stoppedOr(drafted: Promise<AnswerDraft>): Promise<AnswerDraft> {
  try {
    return await drafted
  } catch (error) {
    if (error instanceof LlmAbortedError) return NOTHING_WRITTEN
    throw error
  }
}

export function logAnswered(
  log: FastifyBaseLogger,
  conversationId: string,
  sources: number,
  started: number,
  stopped = false,
  checkMs = 0,
  judgeMs = 0,
) {
  const ms = Math.round(performance.now() - started)
  const tenths = (n: number) => Math.round(n * 10) / 10
  log.info(
    {
      event: 'chat.answered',
      conversationId,
      sources,
      stopped,
      ms,
      checkMs: tenths(checkMs),
      ...(judgeMs > 0 ? { judgeMs: Math.round(judgeMs) } : {}),
    },
    'question answered',
  )
}

/** A citation check that failed leaves the answer "not checked" (checks null), said here once. */
export function logUnchecked(
  log: FastifyBaseLogger,
  conversationId: string,
  answer: { checks: unknown[] | null; checkError?: unknown },
) {
  if (answer.checks !== null) return
  log.warn(
    { event: 'chat.citations.unchecked', err: answer.checkError, conversationId },
    'citations not checked',
  )
}

/** The model judge failed (timed out, erred, or answered no verdict): the answer keeps its checks unjudged (D140). */
export function logUnjudged(
  log: FastifyBaseLogger,
  conversationId: string,
  answer: { judgeError?: unknown; judgeMs?: number },
) {
  if (answer.judgeError === undefined) return
  log.warn(
    {
      event: 'chat.citations.unjudged',
      err: answer.judgeError,
      conversationId,
      ms: Math.round(answer.judgeMs ?? 0),
    },
    'citations not judged',
  )
}
