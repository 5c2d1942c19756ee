/**
 * The emulator's accounts and Drive files. Everything a test asserts on (ids, names, the unique
 * facts and the page that holds them) is a constant here and can be imported without starting the
 * emulator; the bytes (PDFs from pdf-lib, text, exports) are built once by `buildFixtureFiles()`.
 * Ids are derived from a hash of the fixture key, so they are the same on every run.
 */
import { createHash } from 'node:crypto'
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib'
import { addPdfOutline } from '../pdf-outline.ts'
import { textImage } from '../scans.ts'
import type { NewDriveFile } from './store.ts'
import { type Tab, workbookFile, XLSX_MIME } from './xlsx.ts'

export const ADA = 'ada@example.com'
export const BOB = 'bob@example.com'
export const CAROL = 'carol@example.com'

export type FixtureAccount = { email: string; name: string }

/** Ada owns the fixture files, Bob one small text file, Carol nothing (an empty Drive). */
export const FIXTURE_ACCOUNTS: readonly FixtureAccount[] = [
  { email: ADA, name: 'Ada Lovelace' },
  { email: BOB, name: 'Bob Builder' },
  { email: CAROL, name: 'Carol Empty' },
]

export const MIME = {
  pdf: 'application/pdf',
  text: 'text/plain',
  markdown: 'text/markdown',
  png: 'image/png',
  folder: 'application/vnd.google-apps.folder',
  googleDoc: 'application/vnd.google-apps.document',
  googleSheet: 'application/vnd.google-apps.spreadsheet',
} as const

export const MAX_INGEST_BYTES = 10 * 1024 * 1024
export const LARGE_FILE_BYTES = 12 * 1024 * 1024
export const FILLER_COUNT = 20

/** What the file is there to exercise; an ingester decides what to do with each. */
export type FixtureRole =
  | 'pdf'
  | 'text'
  | 'markdown'
  | 'google-doc'
  | 'google-sheet'
  | 'folder'
  | 'trashed'
  | 'broken-pdf'
  | 'encrypted-pdf'
  | 'too-large'
  | 'image'
  | 'filler'

export type FixtureFact = { text: string; page?: number }

export type FixtureFile = {
  key: string
  id: string
  owner: string
  name: string
  mimeType: string
  role: FixtureRole
  /** Sentences found in this file and nowhere else (page: 1-based PDF page). */
  facts: readonly FixtureFact[]
  /** Parent folder id; files without one sit at the root of My Drive. */
  parent?: string
  trashed?: boolean
  modifiedTime: string
}

/** Google-like ids: 33 characters for files and folders, 44 for Docs Editors files. */
export function fixtureId(key: string, length = 33): string {
  const digest = createHash('sha256').update(`docchat-google-emulator/${key}`).digest('base64url')
  return `1${digest}`.slice(0, length)
}

const BASE_TIME = Date.parse('2026-01-05T09:00:00.000Z')
const HOUR = 3_600_000
const time = (hoursAfterBase: number) => new Date(BASE_TIME + hoursAfterBase * HOUR).toISOString()

const PROJECTS_FOLDER_ID = fixtureId('projects-folder')

function fixture(
  key: string,
  file: Omit<FixtureFile, 'key' | 'id' | 'owner' | 'facts'> & { owner?: string; facts?: FixtureFact[] },
): FixtureFile {
  const length = file.mimeType.startsWith('application/vnd.google-apps.') && file.role !== 'folder' ? 44 : 33
  return { key, id: fixtureId(key, length), owner: ADA, facts: [], ...file }
}

export const ZEPHYR_LAUNCH_FACT = 'The Zephyr project launch code is AURORA-7731.'
/** What the whiteboard photo shows (a PNG of these lines, no text layer). */
export const WHITEBOARD_LINES = ['Sprint board', 'The demo moves to Friday with code HERON-6614.'] as const

export const FIXTURE_FILES = {
  zephyrBrief: fixture('zephyr-brief', {
    name: 'zephyr-project-brief.pdf',
    mimeType: MIME.pdf,
    role: 'pdf',
    facts: [
      { text: ZEPHYR_LAUNCH_FACT, page: 2 },
      { text: 'The Zephyr budget review is scheduled for 14 March 2027.', page: 3 },
    ],
    modifiedTime: time(30),
  }),
  notes: fixture('notes', {
    name: 'notes.txt',
    mimeType: MIME.text,
    role: 'text',
    facts: [{ text: 'The staging database runs on the host cobalt-db-17.' }],
    modifiedTime: time(29),
  }),
  meetingMinutes: fixture('meeting-minutes', {
    name: 'meeting-minutes.md',
    mimeType: MIME.markdown,
    role: 'markdown',
    facts: [{ text: 'The Q3 retrospective chose the codename BLUE HERON.' }],
    parent: PROJECTS_FOLDER_ID,
    modifiedTime: time(28),
  }),
  handbook: fixture('onboarding-handbook', {
    name: 'Onboarding Handbook',
    mimeType: MIME.googleDoc,
    role: 'google-doc',
    facts: [{ text: 'New hires receive a badge with the prefix NOVA-58.' }],
    modifiedTime: time(27),
  }),
  budget: fixture('budget-sheet', {
    name: 'Budget 2027',
    mimeType: MIME.googleSheet,
    role: 'google-sheet',
    // The first tab's (also in its CSV export), and the third's (only in its XLSX export).
    facts: [{ text: 'Contingency reserve SHEET-9910' }, { text: 'Lighthouse grant FORECAST-3370' }],
    modifiedTime: time(26),
  }),
  projectsFolder: fixture('projects-folder', {
    name: 'Projects',
    mimeType: MIME.folder,
    role: 'folder',
    modifiedTime: time(25),
  }),
  trashedDraft: fixture('trashed-draft', {
    name: 'old-draft.txt',
    mimeType: MIME.text,
    role: 'trashed',
    facts: [{ text: 'The retired access phrase was GHOST-LANTERN-404.' }],
    trashed: true,
    modifiedTime: time(24),
  }),
  brokenPdf: fixture('broken-pdf', {
    name: 'broken-scan.pdf',
    mimeType: MIME.pdf,
    role: 'broken-pdf',
    modifiedTime: time(23),
  }),
  encryptedPdf: fixture('encrypted-pdf', {
    name: 'locked-contract.pdf',
    mimeType: MIME.pdf,
    role: 'encrypted-pdf',
    facts: [{ text: 'The locked contract fee is 880 credits.', page: 1 }],
    modifiedTime: time(22),
  }),
  largePdf: fixture('large-pdf', {
    name: 'site-survey-scans.pdf',
    mimeType: MIME.pdf,
    role: 'too-large',
    modifiedTime: time(21),
  }),
  whiteboard: fixture('whiteboard-photo', {
    name: 'whiteboard.png',
    mimeType: MIME.png,
    role: 'image',
    // A picture of text, so only OCR reads it.
    facts: [{ text: WHITEBOARD_LINES[1] }],
    modifiedTime: time(20),
  }),
  bobNotes: fixture('bob-notes', {
    owner: BOB,
    name: 'bob-notes.txt',
    mimeType: MIME.text,
    role: 'text',
    facts: [{ text: 'The Orion warehouse door code is 5521-ORION.' }],
    modifiedTime: time(10),
  }),
} as const satisfies Record<string, FixtureFile>

/** filler-01.txt … filler-20.txt: small text files so that Ada's listing needs several pages. */
export const FILLER_FILES: readonly FixtureFile[] = Array.from({ length: FILLER_COUNT }, (_, i) => {
  const n = String(i + 1).padStart(2, '0')
  return fixture(`filler-${n}`, {
    name: `filler-${n}.txt`,
    mimeType: MIME.text,
    role: 'filler',
    facts: [{ text: `Filler note ${n} records the shelf code SHELF-${101 + i}.` }],
    modifiedTime: time(i),
  })
})

export const ALL_FIXTURE_FILES: readonly FixtureFile[] = [...Object.values(FIXTURE_FILES), ...FILLER_FILES]

export function fixtureFilesOf(email: string): FixtureFile[] {
  return ALL_FIXTURE_FILES.filter((f) => f.owner === email)
}

/** What a listing with `trashed = false and mimeType != folder` returns for an account. */
export function listableFixtureFilesOf(email: string): FixtureFile[] {
  return fixtureFilesOf(email).filter((f) => !f.trashed && f.mimeType !== MIME.folder)
}

const ZEPHYR_PAGES: readonly (readonly string[])[] = [
  [
    'Zephyr Project Brief',
    'Page 1: Overview',
    'The Zephyr project builds a network of weather balloons for coastal towns.',
    'Each balloon reports wind speed and humidity every ten minutes.',
  ],
  [
    'Page 2: Launch',
    ZEPHYR_LAUNCH_FACT,
    'Launch windows open only when the wind stays below 20 knots.',
    'The launch team meets at the north pier at 06:00.',
  ],
  [
    'Page 3: Budget',
    'The Zephyr budget review is scheduled for 14 March 2027.',
    'Spare envelopes and sensors are stored in hangar B.',
  ],
]

const NOTES_TXT = [
  'Team notes',
  '',
  'The staging database runs on the host cobalt-db-17.',
  'Deploys happen on Tuesdays and Thursdays after the stand-up.',
  'Ask in the ops channel before restarting anything on staging.',
  '',
].join('\n')

const MEETING_MINUTES_MD = [
  '# Q3 retrospective minutes',
  '',
  'Attendees: Ada, Grace, Alan.',
  '',
  '## Decisions',
  '',
  '- The Q3 retrospective chose the codename BLUE HERON.',
  '- Releases move to a two-week cadence.',
  '',
  '## Action items',
  '',
  '1. Ada drafts the release checklist.',
  '2. Grace books the demo room.',
  '',
].join('\n')

const HANDBOOK_MD = [
  '# Onboarding Handbook',
  '',
  'Welcome to the team. This handbook covers your first week.',
  '',
  '## Your first day',
  '',
  'New hires receive a badge with the prefix NOVA-58.',
  '',
  'Collect your laptop from the IT desk on the second floor.',
  '',
  '## Tools',
  '',
  '- Chat: the team channel is called general.',
  '- Documents: shared in Google Drive.',
  '',
].join('\n')

const BUDGET_CSV = [
  'Item,Amount',
  'Servers,1200',
  'Balloons,800',
  'Contingency reserve SHEET-9910,300',
  '',
].join('\r\n')

/**
 * The budget sheet's tabs, as its XLSX export holds them (Google's CSV export is the first tab
 * only). Totals are formulas with the values Sheets saved for them.
 */
export const BUDGET_TABS: readonly Tab[] = [
  {
    name: 'Summary',
    rows: [
      ['Item', 'Amount'],
      ['Servers', 1200],
      ['Balloons', 800],
      ['Contingency reserve SHEET-9910', 300],
      ['Total', { formula: 'SUM(B2:B4)', value: 2300 }],
    ],
  },
  {
    name: 'By region',
    rows: [
      ['Region', 'Quarter', 'Revenue'],
      ['North', 'Q3', 1200],
      ['South', 'Q3', 950],
    ],
  },
  {
    name: 'Forecast',
    rows: [
      ['Source', 'Reference', 'Expected'],
      ['Lighthouse grant', 'FORECAST-3370', 5000],
      ['Ticket sales', 'FORECAST-3371', 1800],
    ],
  },
]

/**
 * Docs' text/plain export: what Google sends is a UTF-8 BOM, then the text with CRLF line ends,
 * heading marks dropped and bullets as `* `. Ingesters that forget the BOM see it as a character.
 */
export function plainTextExport(markdown: string): string {
  const lines = markdown
    .trimEnd()
    .split('\n')
    .map((line) => line.replace(/^#{1,6}\s+/, '').replace(/^-\s+/, '* '))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

export function googleDocExports(markdown: string): Record<string, string> {
  return { 'text/markdown': markdown, 'text/plain': plainTextExport(markdown) }
}

function fillerText(file: FixtureFile): string {
  const n = file.name.slice('filler-'.length, 'filler-'.length + 2)
  return [
    `Filler note ${n}`,
    '',
    'This short file exists so that listing the Drive needs several pages.',
    file.facts[0]?.text ?? '',
    '',
  ].join('\n')
}

const FIXED_PDF_DATE = new Date('2026-01-01T00:00:00.000Z')

/** A PDF of these pages (first line of each in a larger size), with an outline when given one. */
async function textPdf(
  title: string,
  pages: readonly (readonly string[])[],
  outline: readonly (readonly [string, number])[] = [],
): Promise<PDFDocument> {
  const doc = await PDFDocument.create()
  doc.setTitle(title)
  doc.setAuthor('Ada Lovelace')
  doc.setCreator('DocChat Google emulator')
  doc.setProducer('pdf-lib')
  doc.setCreationDate(FIXED_PDF_DATE)
  doc.setModificationDate(FIXED_PDF_DATE)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const lines of pages) {
    const page = doc.addPage([595, 842])
    lines.forEach((line, i) => {
      page.drawText(line, { x: 56, y: 770 - i * 22, size: i === 0 ? 16 : 12, font })
    })
  }
  addPdfOutline(doc, outline)
  return doc
}

/**
 * pdf-lib cannot encrypt, so the locked contract is a plain PDF whose trailer names a Standard
 * security handler (RC4, user password required): pdf.js then refuses it with a
 * PasswordException, which is what a real password-protected upload does to an ingester.
 */
async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await textPdf('Locked contract', [
    ['Locked contract', 'The locked contract fee is 880 credits.'],
  ])
  const ctx = doc.context
  const pad = (label: string) => createHash('sha256').update(label).digest('hex')
  ctx.trailerInfo.Encrypt = ctx.obj({
    Filter: PDFName.of('Standard'),
    V: PDFNumber.of(1),
    R: PDFNumber.of(2),
    Length: PDFNumber.of(40),
    P: PDFNumber.of(-3904),
    O: PDFHexString.of(pad('owner')),
    U: PDFHexString.of(pad('user')),
  })
  const fileId = PDFHexString.of(pad('id').slice(0, 32))
  ctx.trailerInfo.ID = ctx.obj([fileId, fileId])
  return doc.save({ useObjectStreams: false })
}

/** A `%PDF-1.7` header, then bytes that are no PDF at all. */
function brokenPdf(): Buffer {
  const garbage = Array.from({ length: 64 }, (_, i) => createHash('sha256').update(`garbage-${i}`).digest())
  return Buffer.concat([Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1'), ...garbage])
}

let built: Promise<NewDriveFile[]> | undefined

/** The fixture files as the store takes them; built once per process (pdf-lib takes ~100 ms). */
export function buildFixtureFiles(): Promise<NewDriveFile[]> {
  built ??= build()
  return built
}

async function build(): Promise<NewDriveFile[]> {
  const F = FIXTURE_FILES
  // Bookmarked like an exported report: each page's heading line is an outline entry.
  const zephyrOutline = ZEPHYR_PAGES.map((lines, i) => [lines[i === 0 ? 1 : 0] ?? '', i] as const)
  const zephyr = await (await textPdf('Zephyr Project Brief', ZEPHYR_PAGES, zephyrOutline)).save({
    useObjectStreams: false,
  })
  // What Google's PDF export of the Doc looks like: its text, laid out on one page.
  const handbookPdf = await (
    await textPdf('Onboarding Handbook', [
      plainTextExport(HANDBOOK_MD)
        .replace(/^\uFEFF/, '')
        .split('\n'),
    ])
  ).save({ useObjectStreams: false })
  const content = new Map<string, Partial<NewDriveFile>>([
    [F.zephyrBrief.key, { content: zephyr, searchText: ZEPHYR_PAGES.flat().join('\n') }],
    [F.notes.key, { content: NOTES_TXT }],
    [F.meetingMinutes.key, { content: MEETING_MINUTES_MD }],
    [F.handbook.key, { exports: { ...googleDocExports(HANDBOOK_MD), 'application/pdf': handbookPdf } }],
    [F.budget.key, { exports: { 'text/csv': BUDGET_CSV, [XLSX_MIME]: workbookFile(BUDGET_TABS) } }],
    [F.trashedDraft.key, { content: 'Old draft\n\nThe retired access phrase was GHOST-LANTERN-404.\n' }],
    [F.brokenPdf.key, { content: brokenPdf() }],
    [F.encryptedPdf.key, { content: await encryptedPdf() }],
    [
      F.largePdf.key,
      {
        content: '%PDF-1.7\n% site survey scans: padding streamed by the emulator\n',
        generatedSize: LARGE_FILE_BYTES,
      },
    ],
    [F.whiteboard.key, { content: await textImage(WHITEBOARD_LINES) }],
    [F.bobNotes.key, { content: 'Bob notes\n\nThe Orion warehouse door code is 5521-ORION.\n' }],
  ])
  return ALL_FIXTURE_FILES.map((file) => ({
    id: file.id,
    owner: file.owner,
    name: file.name,
    mimeType: file.mimeType,
    parents: file.parent ? [file.parent] : ['root'],
    trashed: file.trashed ?? false,
    createdTime: new Date(Date.parse(file.modifiedTime) - 24 * HOUR),
    modifiedTime: file.modifiedTime,
    version: 1,
    ...(file.role === 'filler' ? { content: fillerText(file) } : content.get(file.key)),
  }))
}
