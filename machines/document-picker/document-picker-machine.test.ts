import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { Library, LibraryDocument } from '#contracts/documents.ts'
import { libraryDocument } from '../documents/documents-fixtures.ts'
import {
  type DocumentPickerEmitted,
  PICKER_MAX_MATCHES,
  pickerMatches,
  provideDocumentPickerMachine,
} from './document-picker-machine.ts'

function document(id: string, name: string, status: LibraryDocument['status'] = 'ready'): LibraryDocument {
  return libraryDocument(name, { id, status })
}

const library = (documents: LibraryDocument[]): Library => ({
  documents,
  progress: { running: false, done: documents.length, total: documents.length },
  removed: [],
})

function startPicker(listDocuments = vi.fn().mockResolvedValue(library([]))) {
  const picker = createActor(provideDocumentPickerMachine({ listDocuments })).start()
  const chosen: DocumentPickerEmitted[] = []
  picker.on('picker.chosen', (event) => chosen.push(event))
  return { picker, chosen, listDocuments }
}

const shown = (picker: ReturnType<typeof startPicker>['picker']) =>
  waitFor(picker, (s) => s.hasTag('open') && !s.hasTag('loading'))

test('typing # lists my ready documents whose names hold the query, those already chosen left out', async () => {
  const { picker, listDocuments } = startPicker(
    vi
      .fn()
      .mockResolvedValue(
        library([
          document('a', 'Quarterly report.pdf'),
          document('b', 'Annual report.pdf'),
          document('c', 'Report draft.pdf', 'processing'),
          document('d', 'Minutes.pdf'),
        ]),
      ),
  )

  picker.send({ type: 'picker.search', at: 0, query: '', excluded: ['b'] })
  await shown(picker)
  expect(pickerMatches(picker.getSnapshot().context).map((d) => d.id)).toEqual(['a', 'd'])

  picker.send({ type: 'picker.search', at: 0, query: 'REP', excluded: [] })
  expect(pickerMatches(picker.getSnapshot().context).map((d) => d.name)).toEqual([
    'Quarterly report.pdf',
    'Annual report.pdf',
  ])
  expect(listDocuments).toHaveBeenCalledTimes(1)
})

test('arrow keys move the highlight round the list, and Enter chooses it', async () => {
  const { picker, chosen } = startPicker(
    vi
      .fn()
      .mockResolvedValue(library([document('a', 'a.pdf'), document('b', 'b.pdf'), document('c', 'c.pdf')])),
  )
  picker.send({ type: 'picker.search', at: 4, query: '', excluded: [] })
  await shown(picker)

  picker.send({ type: 'picker.previous' })
  expect(picker.getSnapshot().context.highlighted).toBe(2)
  picker.send({ type: 'picker.next' })
  picker.send({ type: 'picker.next' })
  picker.send({ type: 'picker.choose' })

  expect(chosen).toEqual([{ type: 'picker.chosen', document: { id: 'b', name: 'b.pdf' }, at: 4, query: '' }])
  expect(picker.getSnapshot().hasTag('open')).toBe(false)
})

test('nothing to choose: no ready document, or none that matches, chooses nothing', async () => {
  const { picker, chosen } = startPicker()
  picker.send({ type: 'picker.search', at: 0, query: 'x', excluded: [] })
  await shown(picker)

  picker.send({ type: 'picker.choose' })

  expect(chosen).toEqual([])
  expect(picker.getSnapshot().hasTag('open')).toBe(true)
})

test('Escape dismisses the picker for that #; another # opens it again and reads the library again', async () => {
  const { picker, listDocuments } = startPicker(vi.fn().mockResolvedValue(library([document('a', 'a.pdf')])))
  picker.send({ type: 'picker.search', at: 0, query: '', excluded: [] })
  await shown(picker)

  picker.send({ type: 'picker.dismiss' })
  picker.send({ type: 'picker.search', at: 0, query: 'a', excluded: [] })
  expect(picker.getSnapshot().hasTag('open')).toBe(false)

  picker.send({ type: 'picker.search', at: 6, query: '', excluded: [] })
  await shown(picker)
  expect(listDocuments).toHaveBeenCalledTimes(2)
})

test(`at most ${PICKER_MAX_MATCHES} documents are offered at once; a failed read is tried again as I type`, async () => {
  const many = Array.from({ length: PICKER_MAX_MATCHES + 3 }, (_, i) => document(`d${i}`, `doc ${i}.pdf`))
  const listDocuments = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(library(many))
  const { picker } = startPicker(listDocuments)

  picker.send({ type: 'picker.search', at: 0, query: '', excluded: [] })
  await waitFor(picker, (s) => s.matches({ open: 'failed' }))
  picker.send({ type: 'picker.search', at: 0, query: 'd', excluded: [] })
  await shown(picker)

  expect(pickerMatches(picker.getSnapshot().context)).toHaveLength(PICKER_MAX_MATCHES)
})
