import { expect, test } from 'vitest'
import { chunkDocument } from '#server/documents/reading/chunker.ts'
import { DocxTextError, docxSection, isOutOfMemory } from '#server/documents/reading/docx-text.ts'
import { docxFile } from '#tests/fakes/google/docx.ts'

const HANDBOOK = [
  { text: 'Fleet handbook', style: 'Title' },
  'Read this before your first trip.',
  { text: 'Radio', style: 'Heading1' },
  'Every trawler carries the radio call sign TIDEPOOL-88.',
  '# not a heading: a paragraph that starts with a hash',
  { text: 'Fuel', style: 'Heading2' },
  'Refuel at Harbour 4 only.',
]

test("a Word file's heading styles become the headings of its passages", async () => {
  const section = await docxSection(
    docxFile(HANDBOOK, { Title: 'Title', Heading1: 'heading 1', Heading2: 'heading 2' }),
  )
  const chunks = chunkDocument([section])
  expect(chunks.map((c) => [c.heading, c.text])).toEqual([
    ['Fleet handbook', 'Fleet handbook\n\nRead this before your first trip.'],
    [
      'Radio',
      'Radio\n\nEvery trawler carries the radio call sign TIDEPOOL-88.\n\n# not a heading: a paragraph that starts with a hash',
    ],
    ['Fuel', 'Fuel\n\nRefuel at Harbour 4 only.'],
  ])
})

test('the style name decides: a localised heading id is a heading, a body style named like one is not', async () => {
  const section = await docxSection(
    docxFile(
      [
        { text: 'Funk', style: 'berschrift1' },
        'Rufzeichen TIDEPOOL-88.',
        { text: 'Heading-looking body', style: 'Heading1' },
        'More text.',
      ],
      { berschrift1: 'heading 1', Heading1: 'Body Text' },
    ),
  )
  expect(chunkDocument([section]).map((c) => c.heading)).toEqual(['Funk'])
})

test('without style definitions the heading style ids still count', async () => {
  const section = await docxSection(
    docxFile([{ text: 'Radio', style: 'Heading3' }, 'Call sign TIDEPOOL-88.']),
  )
  expect(section.paragraphs).toEqual([
    { text: 'Radio', heading: 'Radio' },
    { text: 'Call sign TIDEPOOL-88.', heading: null },
  ])
  expect(section.text).toBe('Radio\n\nCall sign TIDEPOOL-88.')
})

test('a file that is not a Word document, or one without text, fails with a reason', async () => {
  await expect(docxSection(Buffer.from('not a zip at all'))).rejects.toThrow(
    new DocxTextError('the file is not a readable Word document'),
  )
  await expect(docxSection(docxFile(['', '   ']))).rejects.toThrow(
    new DocxTextError('the Word document has no text to read'),
  )
})

test('running out of memory reads as "too large"; a malformed file that throws a RangeError does not', () => {
  // What V8 and Node throw when the reader's ceilings (D66) refuse an allocation.
  expect(isOutOfMemory(new RangeError('Array buffer allocation failed'))).toBe(true)
  expect(isOutOfMemory(new RangeError('Failed to allocate memory'))).toBe(true)
  expect(isOutOfMemory(new RangeError('Invalid string length'))).toBe(true)
  // What a parser throws on a broken file.
  expect(isOutOfMemory(new RangeError('Offset is outside the bounds of the DataView'))).toBe(false)
  expect(isOutOfMemory(new Error('Array buffer allocation failed'))).toBe(false)
})
