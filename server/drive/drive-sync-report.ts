/**
 * What the ingest call answers (product §7): the last sync's plan, with the files it queued as
 * they came out of reading (ready, skipped when read, failed, still pending).
 */
import type { IngestReport } from '#contracts/drive.ts'
import type { Db } from '../db/database.ts'
import { createLibraryRepository } from '../documents/library/library-repository.ts'
import { DRIVE_SOURCE } from '../documents/library/sources.ts'
import { syncState } from './drive-syncs-repository.ts'
import { ingestReport } from './ingest-report.ts'

export async function syncReport(db: Db, userId: string, now: Date): Promise<IngestReport> {
  const plan = (await syncState(db, userId, now)).plan
  const rows = await createLibraryRepository(db).bySource(userId, DRIVE_SOURCE)
  const byId = new Map(rows.map((r) => [r.id, r]))
  const readyNames = (ids: readonly string[] = []) =>
    ids.flatMap((id) => {
      const row = byId.get(id)
      return row?.status === 'ready' && !row.excluded ? [row.name] : []
    })
  const pendingRows = rows.filter((r) => !r.excluded && (r.status === 'queued' || r.status === 'processing'))
  // Queued, then found not to be read (an image with OCR off): skipped like the listing's.
  const skippedWhenRead = [...(plan?.added ?? []), ...(plan?.updated ?? [])].flatMap((id) => {
    const row = byId.get(id)
    return row?.status === 'skipped' && !row.excluded
      ? [{ name: row.name, reason: row.reason ?? 'the file was not read' }]
      : []
  })
  return ingestReport(
    {
      added: readyNames(plan?.added),
      updated: readyNames(plan?.updated),
      unchanged: plan?.unchanged ?? [],
      removed: plan?.removed ?? [],
      skipped: [...(plan?.skipped ?? []), ...skippedWhenRead],
      failed: rows
        .filter((r) => !r.excluded && r.status === 'failed')
        .map((r) => ({ name: r.name, reason: r.reason ?? 'the file could not be read' })),
    },
    pendingRows.length,
  )
}
