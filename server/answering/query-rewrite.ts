/**
 * Query understanding for follow-ups: with a model configured and a conversation under way, the
 * model rewrites a question that refers back into a standalone search query ("and how do I undo
 * that?" becomes "undo a git commit"), so retrieval finds the passages a follow-up is about. One
 * short call, skipped for a question that stands alone (it comes before the answer's first token);
 * a failure never fails the send — retrieval then searches the question with the previous one.
 */

import type { Turn } from '../documents/index/passages.ts'
import { type Llm, LlmAbortedError } from './llm.ts'
import { estimatedUsage, type TokenUsage } from './token-usage.ts'

/** Turns of the conversation the rewrite sees (the newest), and how much of each. */
const REWRITE_TURNS = 4
const REWRITE_TURN_CHARS = 600
/** A longer "query" is the model answering instead of rewriting: it is cut to this. */
const MAX_QUERY_CHARS = 300
/** The rewrite is given this long (the answer still gets LLM_TIMEOUT_MS of its own). */
export const REWRITE_TIMEOUT_MS = 8000
/** A query of at most 20 words needs few tokens; a model that answers instead is cut here (D84). */
export const REWRITE_MAX_TOKENS = 64

export const REWRITE_PROMPT = [
  'You turn the last question of a conversation into a standalone search query for the person’s documents.',
  'Resolve pronouns and references ("that", "it", "the second one") from the conversation.',
  'Write the query in the language of the last question.',
  'Reply with the query only: no answer, no quotes, no explanation, at most 20 words.',
].join(' ')

/**
 * Per language (its text search configuration's name, D82): words that point back into the
 * conversation — pronouns and demonstratives ("it", "that"), and words that only mean something
 * after an earlier turn ("previous", "instead", "else") — and the openings that continue the last
 * turn ("and for managers?"). Articles that double as pronouns ("the", "das", "la") are not
 * among them: "the travel policy" names what it is about.
 */
const FOLLOW_UP_WORDS: Readonly<Record<string, { refersBack: string; continues: string }>> = {
  english: {
    refersBack: [
      'it|its|itself|they|them|their|theirs|themselves',
      'this|that|these|those|he|him|his|she|her|hers',
      'there|then|above|previous|previously|earlier|former|latter|same|such',
      'one|ones|another|other|others|else|instead|also|too|again|more|further|so',
    ].join('|'),
    continues: 'and|but|or|so|also|then|what about|how about|what if|why not|how come|ok|okay',
  },
  german: {
    refersBack: [
      'er|ihn|ihm|sie|ihr|ihre|ihren|ihrem|ihrer|ihnen|sein|seine|seinen|seinem|seiner',
      'dies|diese|dieser|dieses|diesem|diesen|jene|jener|jenes|dort|dann|davon|dazu|damit|darüber|dafür|dabei',
      'vorher|vorherige|vorherigen|oben|obige|gleiche|gleichen|selbe|selben|solche|solchen',
      'andere|anderen|anderes|sonst|stattdessen|auch|noch|mehr|weiter|wieder|nochmal|ebenfalls',
    ].join('|'),
    continues: 'und|aber|oder|also|dann|was ist mit|wie ist es mit|und wenn|warum nicht|ok|okay',
  },
  french: {
    refersBack: [
      'il|elle|ils|elles|lui|leur|leurs|eux|celui|celle|ceux|celles|cela|ça|ceci|cette|cet|ces',
      'là|alors|précédent|précédente|précédemment|dessus|même|mêmes|tel|telle|tels|telles',
      'autre|autres|sinon|plutôt|aussi|encore|davantage',
    ].join('|'),
    continues:
      "et|mais|ou|donc|alors|aussi|et si|et pour|qu’en est-il|qu'en est-il|pourquoi pas|ok|d’accord|d'accord",
  },
  spanish: {
    refersBack: [
      'él|ella|ellos|ellas|le|les|lo|los|su|sus|esto|eso|aquello|este|esta|estos|estas|ese|esa|esos|esas',
      'allí|ahí|entonces|anterior|anteriormente|mismo|misma|mismos|tal|otro|otra|otros|otras|también|además',
    ].join('|'),
    continues: 'y|pero|o|entonces|también|y si|qué pasa con|por qué no|vale|ok',
  },
  italian: {
    refersBack: [
      'lui|lei|loro|lo|gli|suo|sua|suoi|sue|questo|questa|questi|queste|quello|quella|quelli|quelle|ciò',
      'lì|là|allora|precedente|prima|stesso|stessa|stessi|tale|altro|altra|altri|altre|anche|ancora',
    ].join('|'),
    continues: 'e|ma|o|allora|anche|e se|e per|che ne dici di|perché no|ok|va bene',
  },
  portuguese: {
    refersBack: [
      'ele|ela|eles|elas|lhe|lhes|seu|sua|seus|suas|isto|isso|aquilo|este|esta|estes|estas|esse|essa|esses|essas',
      'ali|aí|então|anterior|anteriormente|mesmo|mesma|mesmos|tal|outro|outra|outros|outras|também|ainda',
    ].join('|'),
    continues: 'e|mas|ou|então|também|e se|e quanto a|por que não|ok|certo',
  },
  dutch: {
    refersBack: [
      'hij|hem|zij|ze|haar|hun|hen|zijn|dit|deze|daar|dan|daarvan|daarmee|daarover',
      'vorige|eerder|eerdere|zelfde|dezelfde|hetzelfde|zulke|andere|anders|ook|nog|meer|weer|opnieuw',
    ].join('|'),
    continues: 'en|maar|of|dus|dan|ook|wat dacht je van|en als|waarom niet|ok|oké',
  },
}

/** The follow-up words of a language as patterns; null for a language without a list. */
function patternsOf(language: string): { refersBack: RegExp; continues: RegExp } | null {
  const words = FOLLOW_UP_WORDS[language]
  if (!words) return null
  // \b is ASCII-only in JavaScript: word edges are letters or digits of any script.
  return {
    refersBack: new RegExp(`(?<![\\p{L}\\p{N}])(${words.refersBack})(?![\\p{L}\\p{N}])`, 'iu'),
    continues: new RegExp(`^\\s*(${words.continues})(?![\\p{L}\\p{N}])`, 'iu'),
  }
}

/** Shorter than this (in words) a question is an ellipsis ("in 2023?", "how much?"). */
const MIN_STANDALONE_WORDS = 4

/**
 * Whether a question can be searched as asked: long enough, not opening as a continuation and
 * without a word that refers back, in its own language (`language`, as detected) or in English
 * (a short question's language is easily mistaken). When in doubt it does not stand alone — in a
 * language without a list, a question in a conversation is always rewritten: the rewrite costs a
 * short model call, a follow-up searched without its context finds the wrong passages.
 */
export function standsAlone(question: string, language = 'english'): boolean {
  const words = question
    .trim()
    .split(/\s+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w))
  if (words.length < MIN_STANDALONE_WORDS) return false
  const own = patternsOf(language)
  if (!own) return false
  return [own, patternsOf('english')].every(
    (p) => p !== null && !p.continues.test(question) && !p.refersBack.test(question),
  )
}

/**
 * What retrieval searches for: the question alone when there is no model, no earlier turn, or
 * when it stands alone; otherwise the question followed by the model's standalone rewrite (the
 * question's own words stay, so a rewrite that drifts cannot lose them), or, if the model fails,
 * by the last question the person asked before. Aborting `signal` (Stop) ends the rewrite and
 * throws LlmAbortedError: nothing is searched for an answer nobody waits for. `spent` hears what a
 * rewrite cost (the model's reported usage, else the estimate, D134): the answer's usage counts it.
 */
export async function searchQuery(
  llm: Llm | null,
  question: string,
  history: Turn[],
  language = 'english',
  signal?: AbortSignal,
  spent?: (usage: TokenUsage) => void,
): Promise<string> {
  if (!llm || history.length === 0 || standsAlone(question, language)) return question
  const recent = history
    .slice(-REWRITE_TURNS)
    .map((t) => `${t.isUser ? 'Person' : 'Assistant'}: ${t.content.slice(0, REWRITE_TURN_CHARS)}`)
    .join('\n')
  const timeout = AbortSignal.timeout(REWRITE_TIMEOUT_MS)
  try {
    const prompt = [
      { role: 'system' as const, content: REWRITE_PROMPT },
      { role: 'user' as const, content: `Conversation:\n${recent}\n\nLast question: ${question}` },
    ]
    const { text, usage } = await llm.complete(prompt, {
      maxTokens: REWRITE_MAX_TOKENS,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
    spent?.(usage ?? estimatedUsage(prompt, text))
    return `${question}\n${text.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS)}`
  } catch {
    if (signal?.aborted) throw new LlmAbortedError()
    const previous = [...history].reverse().find((t) => t.isUser)
    return previous ? `${question}\n${previous.content.slice(0, REWRITE_TURN_CHARS)}` : question
  }
}
