/**
 * A conversation as a file to take elsewhere (`GET /chat/sessions/{id}/export`): its title, each
 * question and answer with its time, and the citations as numbered footnotes (document name,
 * page or heading, the quoted passage as the answer saw it). One model, two renderings: Markdown
 * here (GitHub-flavoured footnotes), PDF in conversation-pdf.ts.
 *
 * Each answer numbers its citations from [1]; a file numbers them once through the whole
 * conversation, so answer 2's [1] becomes footnote 3 when answer 1 had two. A marker that names
 * no passage of its answer is dropped, as the chat view drops it (D23); a source the text does
 * not mark (an answer written without a model) is marked at the end of its answer.
 */
import { setImmediate } from 'node:timers/promises'
import { httpErrors } from '@fastify/sensible'
import type { SourceSnapshot, StoredCheck } from '../db/schema.ts'
import type { ConversationRecord, MessageRecord } from './chat-repository.ts'
import { escapeMarkdownText, neutraliseMarkdown } from './markdown-safety.ts'

export const EXPORT_MESSAGES = {
  timeZone: 'Not a valid time zone',
  tooLong: 'This conversation is too long to export as a PDF. Export it as Markdown instead.',
} as const

/** Where a footnote marker stands in a turn's text until a rendering writes it its own way. */
const NOTE_MARK = /\uE000(\d+)\uE001/g

export type ExportNote = {
  number: number
  documentName: string
  page: number | null
  heading: string | null
  quote: string
}

export type ExportTurn = {
  who: 'You' | 'DocChat'
  /** When it was sent or answered, in the reader's time zone. */
  time: string
  /** The text, footnote markers as NOTE_MARK. */
  text: string
  stopped: boolean
  /** Its sentences whose citation check failed, in words (D129): unverified and not cited. */
  warnings: string[]
}

export type ExportModel = {
  title: string
  /** "Exported on … (times in Europe/Paris)". */
  subtitle: string
  turns: ExportTurn[]
  notes: ExportNote[]
}

/** A formatter for `timeZone`, or 400 when the name is not a time zone. */
function timeFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone })
  } catch {
    throw httpErrors.badRequest(EXPORT_MESSAGES.timeZone)
  }
}

export function exportModel(
  conversation: Pick<ConversationRecord, 'title'>,
  messages: readonly MessageRecord[],
  options: { timeZone?: string | undefined; now: Date },
): ExportModel {
  const timeZone = options.timeZone ?? 'UTC'
  const format = timeFormat(timeZone)
  const notes: ExportNote[] = []
  const turns = messages.map((message): ExportTurn => {
    const byCitation = new Map<number, number>()
    const noteOf = (source: SourceSnapshot): number => {
      notes.push({
        number: notes.length + 1,
        documentName: source.documentName,
        page: source.page,
        heading: source.heading ?? null,
        quote: source.quote ?? '',
      })
      return notes.length
    }
    if (!message.isUser) {
      for (const source of message.sources) {
        if (source.citation && !byCitation.has(source.citation))
          byCitation.set(source.citation, noteOf(source))
      }
    }
    const used = new Set<number>()
    let text = message.isUser
      ? message.content
      : message.content.replace(/\[(\d+)\](?!\()/g, (_marker, n: string) => {
          const note = byCitation.get(Number(n))
          if (note === undefined) return ''
          used.add(note)
          return `\uE000${note}\uE001`
        })
    if (!message.isUser) {
      // Sources the text does not mark (an answer quoting without a model cites no [n]) still
      // get their footnotes, marked at the end of the answer.
      const unmarked = [
        ...[...byCitation.values()].filter((note) => !used.has(note)),
        ...message.sources.filter((s) => !s.citation).map(noteOf),
      ]
      if (unmarked.length > 0) text = `${text.trimEnd()} ${unmarked.map((n) => `\uE000${n}\uE001`).join('')}`
    }
    return {
      who: message.isUser ? 'You' : 'DocChat',
      time: format.format(message.createdAt),
      text,
      stopped: message.stopped,
      warnings: warningsOf(message.checks),
    }
  })
  return {
    title: conversation.title,
    subtitle: `Exported from DocChat on ${format.format(options.now)} (times in ${timeZone})`,
    turns,
    notes,
  }
}

/** An answer's sentences the check could not back, in words (the file has no ✓ or ⚠ to show). */
export function warningsOf(checks: readonly StoredCheck[] | null): string[] {
  return (checks ?? []).flatMap((c) => {
    if (c.outcome === 'unverified')
      return [`Unverified: “${c.sentence}” (${listed(c.missing)} not found in the cited passage)`]
    if (c.outcome === 'not-cited') return [`Not cited: “${c.sentence}” names no source`]
    return []
  })
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The turn's text with its footnote markers written by `mark`. */
export function withNotes(text: string, mark: (n: number) => string): string {
  return text.replace(NOTE_MARK, (_all, n: string) => mark(Number(n)))
}

/** Where a passage stands in its document: "page 2", "“Heading”", both, or nothing. */
export function noteLocation(note: Pick<ExportNote, 'page' | 'heading'>): string {
  return [note.page ? `page ${note.page}` : null, note.heading ? `“${note.heading}”` : null]
    .filter(Boolean)
    .join(', ')
}

/**
 * The conversation as a Markdown file that holds no HTML and no link but to http(s): or mailto:
 * (D101): titles, names, questions and passages print as written; answers keep their Markdown.
 */
export async function toMarkdown(model: ExportModel): Promise<string> {
  const lines: string[] = [
    `# ${escapeMarkdownText(oneLine(model.title))}`,
    '',
    `_${escapeMarkdownText(model.subtitle)}_`,
    '',
  ]
  for (const turn of model.turns) {
    lines.push(`**${turn.who}** · ${turn.time}${turn.stopped ? ' · stopped' : ''}`, '')
    const text = turn.who === 'You' ? escapeMarkdownText(turn.text) : neutraliseMarkdown(turn.text)
    lines.push(markdownNotes(text).trim(), '')
    for (const warning of turn.warnings) lines.push(`> ⚠ ${escapeMarkdownText(oneLine(warning))}`, '>')
    if (turn.warnings.length > 0) lines.pop()
    lines.push(...(turn.warnings.length > 0 ? [''] : []), '---', '')
    // An answer can take a parse of up to ~0.2 s (D101); others' requests go between answers.
    if (turn.who === 'DocChat') await setImmediate()
  }
  for (const note of model.notes) {
    const where = noteLocation({
      page: note.page,
      heading: note.heading === null ? null : escapeMarkdownText(oneLine(note.heading)),
    })
    lines.push(
      `[^${note.number}]: ${escapeMarkdownText(oneLine(note.documentName))}${where ? `, ${where}` : ''}`,
    )
    if (note.quote.trim()) {
      lines.push('')
      for (const line of note.quote.trim().split('\n'))
        lines.push(`    > ${escapeMarkdownText(line)}`.trimEnd())
    }
    lines.push('')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

/**
 * Footnote markers as `[^n]`. What follows a marker is escaped when it would make the marker a
 * link (`(`, `[`) or a definition (`:`) to a viewer that knows no footnotes.
 */
function markdownNotes(text: string): string {
  return withNotes(text.replace(/(\uE001)([([:])/g, '$1\\$2'), (n) => `[^${n}]`)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
