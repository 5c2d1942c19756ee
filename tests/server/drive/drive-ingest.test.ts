/**
 * Ingesting a Drive into the assistant, against the Google emulator's fixture Drives: what is
 * added, skipped and failed (and the sentence that says so), unchanged files not downloaded again,
 * changes and removals, one ingest at a time, the answer a chat gives from an ingested PDF page,
 * and people never seeing each other's documents.
 */
import { and, count, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { driveEndpoints } from '#contracts/drive.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { documentChunks, documents } from '#server/db/schema.ts'
import { createDriveApi, DriveFileError } from '#server/drive/drive-api.ts'
import { OCR_OFF_REASON } from '#server/drive/drive-ingest.ts'
import { DEFAULT_RETRY_POLICY } from '#server/drive/google-errors.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, FILLER_FILES, FIXTURE_FILES, ZEPHYR_LAUNCH_FACT } from '#tests/fakes/google/fixtures.ts'
import { createConversation, errorOf, sendOk } from '../support/chat-helpers.ts'
import {
  connectDrive,
  connectedPerson,
  ingest,
  ingestOk,
  type Person,
  setUpDriveApp,
} from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp((started) => {
  ;({ emulator, app } = started)
})

const connected = (account = ADA): Promise<Person> => connectedPerson({ app, emulator }, account)

const retrieve = (userId: string, question: string) => createRetriever(app.db)(userId, question, 5)
/** Every passage retrieval finds for `question`, as one text (a partial match may find others). */
const found = async (userId: string, question: string) =>
  (await createRetriever(app.db)(userId, question, 50)).map((p) => `${p.documentName}: ${p.text}`).join('\n')

async function chunkCount(userId: string, externalId?: string): Promise<number> {
  const [row] = await app.db
    .select({ n: count() })
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(eq(documents.userId, userId), externalId ? eq(documents.externalId, externalId) : undefined))
  return row?.n ?? 0
}

const F = FIXTURE_FILES
const TEXT_NAMES = [F.zephyrBrief.name, F.notes.name, F.meetingMinutes.name, F.handbook.name]

// Tests run with OCR off (helper.ts): the whiteboard photo is skipped with the reason that says
// so (D74), and is never downloaded; tests/server/documents/ocr.test.ts reads it with OCR on.
test("Ada's first ingest: 25 documents in (the sheet with every tab), the image and large PDF skipped, the broken and locked PDFs failed", async () => {
  const ada = await connected()

  const report = await ingestOk(app, ada)

  expect(report.added).toHaveLength(25)
  expect(report.added).toEqual(
    expect.arrayContaining([...TEXT_NAMES, F.budget.name, ...FILLER_FILES.map((f) => f.name)]),
  )
  expect(report.updated).toEqual([])
  expect(report.unchanged).toEqual([])
  expect(report.removed).toEqual([])
  expect(report.skipped).toEqual(
    expect.arrayContaining([
      { name: 'whiteboard.png', reason: OCR_OFF_REASON },
      { name: 'site-survey-scans.pdf', reason: 'the file is larger than 10 MB' },
    ]),
  )
  expect(report.skipped).toHaveLength(2)
  expect(report.failed).toEqual(
    expect.arrayContaining([
      { name: 'broken-scan.pdf', reason: 'the file is not a readable PDF' },
      { name: 'locked-contract.pdf', reason: 'the PDF is password-protected' },
    ]),
  )
  expect(report.failed).toHaveLength(2)
  expect(report.message).toMatch(
    /^Ingested 25 documents: 25 new, 0 updated, 0 unchanged, 0 removed\. Skipped 2 \(.*whiteboard\.png: images are read by OCR, which is turned off on this server.*\)\. Failed 2 \(.*broken-scan\.pdf: the file is not a readable PDF.*\)\.$/,
  )
  // Skipped files are never fetched; the large one is refused by its size alone.
  const fetched = emulator.state.requests
    .filter((r) => r.endpoint === 'files.media' || r.endpoint === 'files.export')
    .map((r) => r.path)
  expect(fetched.some((p) => p.includes(F.largePdf.id))).toBe(false)
  expect(fetched.some((p) => p.includes(F.whiteboard.id))).toBe(false)
})

test('what was ingested is searchable: PDF pages keep their page, Markdown its heading, the Doc came as Markdown, the sheet with every tab', async () => {
  const ada = await connected()
  await ingestOk(app, ada)

  const [launch] = await retrieve(ada.id, 'Zephyr launch code')
  const [heron] = await retrieve(ada.id, 'retrospective codename')
  const [badge] = await retrieve(ada.id, 'badge prefix for new hires')
  const [staging] = await retrieve(ada.id, 'staging database host')

  expect(launch?.text).toContain(ZEPHYR_LAUNCH_FACT)
  expect(launch).toMatchObject({ documentName: 'zephyr-project-brief.pdf', page: 2 })
  expect(launch?.link).toBe(`https://drive.google.com/file/d/${F.zephyrBrief.id}/view?usp=drivesdk`)
  expect(heron).toMatchObject({ documentName: 'meeting-minutes.md', heading: 'Decisions' })
  expect(badge).toMatchObject({ documentName: 'Onboarding Handbook', heading: 'Your first day' })
  expect(staging?.text).toContain('cobalt-db-17')
  const exportOf = (id: string) =>
    emulator.state.requests.find((r) => r.endpoint === 'files.export' && r.path.includes(id))?.query.mimeType
  expect(exportOf(F.handbook.id)).toBe('text/markdown')
  // As XLSX, which holds every tab (its CSV export holds only the first): D75.
  expect(exportOf(F.budget.id)).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  expect(await found(ada.id, 'SHEET-9910 contingency reserve')).toContain(
    'Budget 2027: Summary\n\nItem: Servers · Amount: 1200\n\nItem: Balloons · Amount: 800\n\nItem: Contingency reserve SHEET-9910 · Amount: 300\n\nItem: Total · Amount: 2300',
  )
  // The third tab, found by one cell's value, its row with its headers, under the tab's name.
  const [forecast] = await retrieve(ada.id, 'FORECAST-3370')
  expect(forecast).toMatchObject({ documentName: 'Budget 2027', heading: 'Forecast' })
  expect(forecast?.text).toContain('Source: Lighthouse grant · Reference: FORECAST-3370 · Expected: 5000')
  expect(await found(ada.id, 'GHOST-LANTERN-404 retired access phrase')).not.toContain('GHOST-LANTERN')
})

test('a second ingest asks the change feed, lists nothing, finds everything unchanged and downloads nothing', async () => {
  const ada = await connected()
  await ingestOk(app, ada)
  emulator.state.clearRequests()

  const report = await ingestOk(app, ada)

  expect(report.unchanged).toHaveLength(25)
  expect(report.added).toEqual([])
  expect(report.updated).toEqual([])
  expect(report.skipped.map((f) => f.name).sort()).toEqual(['site-survey-scans.pdf', 'whiteboard.png'])
  expect(report.failed.map((f) => f.name).sort()).toEqual(['broken-scan.pdf', 'locked-contract.pdf'])
  expect(report.message).toMatch(/^Ingested 25 documents: 0 new, 0 updated, 25 unchanged, 0 removed\./)
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1 })
})

test('a changed file is updated: its new text is found and its old text is gone', async () => {
  const ada = await connected()
  await ingestOk(app, ada)
  emulator.state.updateFile(F.notes.id, {
    content: 'Team notes\n\nThe staging database moved to the host indigo-db-42.\n',
  })
  emulator.state.clearRequests()

  const report = await ingestOk(app, ada)

  expect(report.updated).toEqual(['notes.txt'])
  expect(report.unchanged).toHaveLength(24)
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 1 })
  expect((await retrieve(ada.id, 'indigo-db-42'))[0]?.documentName).toBe('notes.txt')
  expect(await found(ada.id, 'cobalt-db-17')).not.toContain('cobalt-db-17')
})

test('a file deleted from Drive is removed with its chunks; a trashed one too', async () => {
  const ada = await connected()
  await ingestOk(app, ada)
  expect(await chunkCount(ada.id, F.notes.id)).toBeGreaterThan(0)
  emulator.state.removeFile(F.notes.id)
  emulator.state.trashFile(F.meetingMinutes.id)

  const report = await ingestOk(app, ada)

  expect(report.removed.sort()).toEqual(['meeting-minutes.md', 'notes.txt'])
  expect(report.message).toContain('2 removed')
  expect(await chunkCount(ada.id, F.notes.id)).toBe(0)
  expect(await chunkCount(ada.id, F.meetingMinutes.id)).toBe(0)
  expect(await found(ada.id, 'staging database host cobalt-db-17')).not.toContain('cobalt-db-17')
  expect(await found(ada.id, 'retrospective codename BLUE HERON')).not.toContain('BLUE HERON')
})

test('a failed PDF that is fixed in Drive is ingested on the next run', async () => {
  const ada = await connected()
  await ingestOk(app, ada)
  const fixed = await (async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib')
    const doc = await PDFDocument.create()
    const font = await doc.embedFont(StandardFonts.Helvetica)
    doc
      .addPage([400, 300])
      .drawText('The rescanned survey found cracks in pier 9.', { x: 20, y: 250, size: 11, font })
    return doc.save()
  })()
  emulator.state.updateFile(F.brokenPdf.id, { content: fixed })

  const report = await ingestOk(app, ada)

  expect(report.added).toEqual(['broken-scan.pdf'])
  expect(report.failed.map((f) => f.name)).toEqual(['locked-contract.pdf'])
  expect((await retrieve(ada.id, 'cracks in pier 9'))[0]?.page).toBe(1)
})

test('a second ingest while one is running joins it: the Drive is listed and each file read once', async () => {
  const ada = await connected()
  emulator.state.setLatency(30)

  const [first, second] = await Promise.all([
    ingest(app, ada),
    new Promise((resolve) => setTimeout(resolve, 10)).then(() => ingest(app, ada)),
  ])
  emulator.state.setLatency(0)

  expect(first.statusCode).toBe(200)
  expect(second.statusCode).toBe(200)
  const reports = [first, second].map((r) => driveEndpoints.ingestDocuments.response.parse(r.json()).data)
  expect(reports[0]?.added).toHaveLength(25)
  expect(reports[1]).toEqual(reports[0])
  // One listing (the fixture Drive is three pages) and one download or export per readable file.
  expect(emulator.state.requestCount('files.list')).toBe(3)
  expect(emulator.state.requestCount('changes.getStartPageToken')).toBe(1)
  expect(emulator.state.requestCount('files.media') + emulator.state.requestCount('files.export')).toBe(27)
})

test('revoked access during an ingest ends it with the reconnect sentence, and the lock is released', async () => {
  const ada = await connected()
  emulator.state.revokeGrants(ADA)

  const response = await ingest(app, ada)

  expect(response.statusCode).toBe(409)
  expect(errorOf(response)).toMatch(/expired or was revoked/)
  await connectDrive(app, ada, { account: ADA })
  expect((await ingest(app, ada)).statusCode).toBe(200)
})

test('Drive busy during the downloads: retried with backoff, then the ingest completes', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(3, { endpoints: ['files.media'] })

  const report = await ingestOk(app, ada)

  expect(report.added).toHaveLength(25)
  expect(emulator.state.pendingFailures()).toBe(0)
})

test('a download larger than the limit is cut off while it streams', async () => {
  const ada = await connected()
  const session = await app.googleConnections?.authorizedClient(ada.id)
  if (!session) throw new Error('not connected')
  const api = createDriveApi(session.auth, `${emulator.url}/`, DEFAULT_RETRY_POLICY)

  await expect(api.download(F.notes.id, 20)).rejects.toThrow(DriveFileError)
  await expect(api.download(F.notes.id, 20)).rejects.toThrow('the file is larger than')
})

test('a UTF-16 text file with NULs and a Latin-1 one are read; neither fails the ingest', async () => {
  const ada = await connected()
  const notepad = Buffer.from('\uFEFFWindows notes: the vault code is QUOKKA-5521.\r\n\u0000', 'utf16le')
  emulator.state.addFile({
    owner: ADA,
    name: 'notepad-unicode.txt',
    mimeType: 'text/plain',
    content: notepad,
  })
  emulator.state.addFile({
    owner: ADA,
    name: 'latin1.txt',
    mimeType: 'text/plain',
    content: Buffer.from('Le café de la gare ouvre à 6 h; mot de passe PAMPLEMOUSSE.', 'latin1'),
  })

  const report = await ingestOk(app, ada)

  expect(report.added).toEqual(expect.arrayContaining(['notepad-unicode.txt', 'latin1.txt']))
  expect(report.failed.map((f) => f.name).sort()).toEqual(['broken-scan.pdf', 'locked-contract.pdf'])
  expect(await found(ada.id, 'QUOKKA-5521')).toContain(
    'notepad-unicode.txt: Windows notes: the vault code is QUOKKA-5521.',
  )
  expect(await found(ada.id, 'PAMPLEMOUSSE')).toContain('Le café de la gare ouvre à 6 h')
})

test('an empty Drive says so', async () => {
  const carol = await connected('carol@example.com')

  const report = await ingestOk(app, carol)

  expect(report.message).toBe('Your Google Drive has no files to ingest.')
})

test('after an ingest, the chat answers the Zephyr launch code and names and links the PDF page', async () => {
  const ada = await connected()
  await ingestOk(app, ada)
  const conversation = await createConversation(app, ada.cookie, 'Zephyr')

  const { aiMessage } = await sendOk(
    app,
    ada.cookie,
    conversation._id,
    'What is the Zephyr project launch code?',
  )

  expect(aiMessage.content).toContain('AURORA-7731')
  expect(aiMessage.content).toContain('zephyr-project-brief.pdf, p. 2')
  expect(aiMessage.sources).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        documentName: 'zephyr-project-brief.pdf',
        page: 2,
        // The brief's outline: page 2's bookmark is its section.
        heading: 'Page 2: Launch',
        link: `https://drive.google.com/file/d/${F.zephyrBrief.id}/view?usp=drivesdk`,
      }),
    ]),
  )
})

test("Bob's connection never sees Ada's files, and his questions never retrieve her chunks", async () => {
  const ada = await connected(ADA)
  await ingestOk(app, ada)
  const bob = await connected(BOB)

  const report = await ingestOk(app, bob)
  const conversation = await createConversation(app, bob.cookie, 'Codes')
  const zephyr = await sendOk(app, bob.cookie, conversation._id, 'What is the Zephyr project launch code?')
  const orion = await sendOk(app, bob.cookie, conversation._id, 'What is the Orion warehouse door code?')

  expect(report.added).toEqual(['bob-notes.txt'])
  expect(zephyr.aiMessage.content).not.toContain('AURORA-7731')
  expect(zephyr.aiMessage.sources.map((s) => s.documentName)).not.toContain('zephyr-project-brief.pdf')
  expect(orion.aiMessage.content).toContain('5521-ORION')
  const bobsFinds = await found(bob.id, 'Zephyr project launch code AURORA-7731')
  expect(bobsFinds).not.toContain('AURORA-7731')
  expect(bobsFinds).not.toContain('zephyr-project-brief.pdf')
  expect(await found(ada.id, 'Orion warehouse door code 5521-ORION')).not.toContain('5521-ORION')
})
