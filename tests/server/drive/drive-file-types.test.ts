/**
 * The file types a Drive sync reads beyond text, PDF and Word (D75): an .xlsx of several sheets,
 * an .ods, a CSV, a PowerPoint file and an HTML page, each read into passages with their sheet's,
 * slide's or heading's name, so a question about one cell's value finds its row. (Google Sheets'
 * every tab: drive-ingest.test.ts; images: documents/ocr.test.ts.)
 */
import { expect, test } from 'vitest'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { BOB } from '#tests/fakes/google/fixtures.ts'
import { PPTX_MIME, pptxFile } from '#tests/fakes/google/pptx.ts'
import { ODS_MIME, workbookFile, XLSX_MIME } from '#tests/fakes/google/xlsx.ts'
import { connectedPerson, ingestOk, setUpDriveApp } from '../support/drive-helpers.ts'

let app: App
let emulator: GoogleEmulator
setUpDriveApp((started) => {
  ;({ app, emulator } = started)
})

test('spreadsheets, a presentation and a web page in Drive are read; a row is found by one cell value', async () => {
  const add = (name: string, mimeType: string, content: string | Uint8Array) =>
    emulator.state.addFile({ owner: BOB, name, mimeType, content })
  add(
    'inventory.xlsx',
    XLSX_MIME,
    workbookFile([
      {
        name: 'Lenses',
        rows: [
          ['Item', 'Shelf'],
          ['Fresnel lens', 'A1'],
        ],
      },
      {
        name: 'Spare parts',
        rows: [
          ['Part', 'Supplier', 'Stock'],
          ['Gasket', 'Northwind', 14],
          ['Bulb', 'Contoso', 'PART-6620'],
        ],
      },
    ]),
  )
  add(
    'plan.ods',
    ODS_MIME,
    workbookFile(
      [
        {
          name: 'Plan',
          rows: [
            ['Step', 'Owner'],
            ['Paint ODS-7311', 'Grace'],
          ],
        },
      ],
      'ods',
    ),
  )
  add('prices.csv', 'text/csv', 'Product,Price\nLamp CSV-4409,"1,250"\n')
  add('roadmap.pptx', PPTX_MIME, pptxFile([{ title: 'Roadmap', lines: ['Launch SLIDE-2288 in June.'] }]))
  add('faq.html', 'text/html', '<h1>FAQ</h1><h2>Parking</h2><p>The gate code is HTML-9032.</p>')
  const bob = await connectedPerson({ app, emulator }, BOB)

  const report = await ingestOk(app, bob)

  expect(report.failed).toEqual([])
  expect(report.added).toEqual(
    expect.arrayContaining(['inventory.xlsx', 'plan.ods', 'prices.csv', 'roadmap.pptx', 'faq.html']),
  )
  const top = async (question: string) => (await createRetriever(app.db)(bob.id, question, 5))[0]
  expect(await top('Which supplier sends PART-6620?')).toMatchObject({
    documentName: 'inventory.xlsx',
    heading: 'Spare parts',
    text: expect.stringContaining('Part: Bulb · Supplier: Contoso · Stock: PART-6620'),
  })
  expect(await top('Who owns ODS-7311?')).toMatchObject({
    documentName: 'plan.ods',
    text: expect.stringContaining('Step: Paint ODS-7311 · Owner: Grace'),
  })
  expect((await top('price of CSV-4409'))?.text).toContain('Product: Lamp CSV-4409 · Price: 1,250')
  expect(await top('When is SLIDE-2288 launched?')).toMatchObject({
    documentName: 'roadmap.pptx',
    heading: 'Slide 1: Roadmap',
  })
  expect(await top('gate code HTML-9032')).toMatchObject({ documentName: 'faq.html', heading: 'Parking' })
})
