/**
 * Codes and identifiers: AURORA-7731, ISO 27001, RFC 7231, SHA-256, x86_64, v2.3.1, §4.2,
 * command options (--max-count) and what an answer writes as code (`reply.send()`). A code is
 * compared by its alphanumeric runs, so its spacing and separators may differ ("ISO 27001",
 * "ISO-27001") but not one letter or digit of it.
 */
import { alnumRuns } from './normalise.ts'
import { matches, type Span } from './spans.ts'

const PATTERNS: RegExp[] = [
  // Written as code in Markdown.
  /`(?<code>[^`\n]{1,60})`/gu,
  // Section signs: §4.2, § 12 (3), §§ 3–5.
  /§§?\s?\d+[a-z]?(?:\.\d+)*(?:\s?\(\d+\))?/gu,
  // Capitals and digits joined by - _ / . : AURORA-7731, ISO/IEC-27001, UTF-8, X.509.
  /(?<![\p{L}\d_-])\p{Lu}[\p{Lu}\d]*(?:[-_/.:][\p{Lu}\d]+)+(?![\p{L}\d_-])/gu,
  // An acronym and a number: ISO 27001, RFC 7231, ISO 27001:2022.
  /(?<![\p{L}\d])(?!(?:EUR|USD|GBP|CHF)\s)\p{Lu}{2,}\s\d+(?:[.:-]\d+)*(?![\p{L}\d])/gu,
  // Letters and digits in one word: SHA256, x86_64, v2.3.1, 0x1F, H2O (not 1st, 3rd, 10th).
  /(?<![\p{L}\d_.-])(?=[\p{L}\d_.-]*\d)(?=[\p{L}\d_.-]*\p{L})(?!\d+(?:st|nd|rd|th|er|e|ème|ten?)\b)[\p{L}\d](?:[\p{L}\d_.-]*[\p{L}\d])?(?![\p{L}\d_-])/gu,
  // Command options.
  /(?<![\p{L}\d-])--[a-z][a-z0-9-]*(?:=\S+)?/gu,
]

/** A figure with its unit written on ("20GB", "5ms", "3.5%"): a figure, not a code. */
const FIGURE_WITH_UNIT = /^\d+(?:[.,]\d+)?(?:k|kb|mb|gb|tb|kib|mib|gib|ms|s|h|min|km|kg|m|cm|mm|g|px|%)$/i

export type Code = { text: string; runs: string[] }

export function codes(text: string): Span<Code>[] {
  const found: Span<Code>[] = []
  for (const pattern of PATTERNS)
    for (const span of matches(text, pattern, (m) => {
      const written = m.groups?.code ?? m[0]
      if (FIGURE_WITH_UNIT.test(written)) return null
      const runs = alnumRuns(written)
      return runs.length > 0 ? { text: m[0], runs } : null
    }))
      if (!found.some((f) => span.start < f.end && f.start < span.end)) found.push(span)
  return found
}

/**
 * Whether a passage's runs hold a code's: the code's runs, joined, equal some consecutive runs of
 * the passage joined ("ISO27001" in "ISO 27001"), starting and ending on run boundaries.
 */
export function holdsCode(passageRuns: readonly string[], code: readonly string[]): boolean {
  const target = code.join('')
  const first = code[0] ?? ''
  for (let i = 0; i < passageRuns.length; i++) {
    const start = passageRuns[i] as string
    if (!target.startsWith(start) && !start.startsWith(first)) continue
    let joined = ''
    for (let j = i; j < passageRuns.length && joined.length < target.length; j++) joined += passageRuns[j]
    if (joined === target) return true
  }
  return false
}
