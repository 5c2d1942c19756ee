/**
 * The ingest report (contracts/drive.ts IngestReportSchema) and the sentences a person reads in
 * the Documents banner: what was ingested, by outcome, then what was skipped and what failed,
 * each with its reason.
 */
import type { IngestReport } from '#contracts/drive.ts'

/** Past this many, a list of reasons ends with "and N more". */
const MAX_LISTED = 5

export type IngestOutcomes = Omit<IngestReport, 'message'>

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

function reasons(items: IngestReport['skipped']): string {
  const listed = items.slice(0, MAX_LISTED).map((item) => `${item.name}: ${item.reason}`)
  if (items.length > MAX_LISTED) listed.push(`and ${items.length - MAX_LISTED} more`)
  return listed.join('; ')
}

/**
 * "Ingested 25 documents: 23 new, 2 updated, 0 unchanged, 0 removed. Skipped 2 (whiteboard.png:
 * images are not supported; …). Failed 2 (broken-scan.pdf: the file is not a readable PDF; …).
 * 3 more documents still being read in the background."
 */
export function ingestMessage(o: IngestOutcomes, pending = 0): string {
  const ingested = o.added.length + o.updated.length + o.unchanged.length
  const listed = ingested + o.skipped.length + o.failed.length + pending
  if (listed === 0 && o.removed.length === 0) return 'Your Google Drive has no files to ingest.'
  const parts = [
    `Ingested ${plural(ingested, 'document')}: ${o.added.length} new, ${o.updated.length} updated, ` +
      `${o.unchanged.length} unchanged, ${o.removed.length} removed.`,
  ]
  if (o.skipped.length > 0) parts.push(`Skipped ${o.skipped.length} (${reasons(o.skipped)}).`)
  if (o.failed.length > 0) parts.push(`Failed ${o.failed.length} (${reasons(o.failed)}).`)
  if (pending > 0) parts.push(`${plural(pending, 'more document')} still being read in the background.`)
  return parts.join(' ')
}

/** `pending`: files queued but not read yet (they carry on in the background). */
export function ingestReport(outcomes: IngestOutcomes, pending = 0): IngestReport {
  return { message: ingestMessage(outcomes, pending), ...outcomes }
}
