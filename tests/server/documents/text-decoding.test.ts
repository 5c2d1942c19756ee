/**
 * Text files as editors save them: UTF-8 with and without a byte-order mark, UTF-16 (Windows
 * Notepad's "Unicode", with a BOM, and without one), Latin-1; NUL and other control characters
 * removed, line breaks and tabs kept.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import {
  DECODE_PIECE_BYTES,
  decodeText,
  decodeTextInTurns,
  detectEncoding,
} from '#server/documents/reading/text-decoding.ts'

const utf16le = (text: string, bom = true) =>
  new Uint8Array([...(bom ? [0xff, 0xfe] : []), ...Buffer.from(text, 'utf16le')])
function utf16be(text: string): Uint8Array {
  const le = Buffer.from(text, 'utf16le')
  const be = Buffer.alloc(le.length)
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1] as number
    be[i + 1] = le[i] as number
  }
  return new Uint8Array([0xfe, 0xff, ...be])
}

test('UTF-8 with and without a byte-order mark', () => {
  const text = 'Grüße, 東京\r\n'
  expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toBe(text)
  expect(decodeText(new TextEncoder().encode(text))).toBe(text)
})

test('UTF-16 little- and big-endian with a byte-order mark', () => {
  const text = 'Quarterly notes: Zürich, 東京\r\nLine two'
  expect(detectEncoding(utf16le(text)).encoding).toBe('utf-16le')
  expect(decodeText(utf16le(text))).toBe(text)
  expect(detectEncoding(utf16be(text)).encoding).toBe('utf-16be')
  expect(decodeText(utf16be(text))).toBe(text)
})

test('UTF-16 without a byte-order mark is recognised by its zero bytes', () => {
  const text = 'Plain ASCII saved as UTF-16 by a tool that writes no mark.'
  expect(detectEncoding(utf16le(text, false)).encoding).toBe('utf-16le')
  expect(decodeText(utf16le(text, false))).toBe(text)
})

test('bytes that are not UTF-8 are read as Latin-1 (Windows-1252)', () => {
  // "Café – 20 €" in Windows-1252: é = E9, en dash = 96, euro = 80.
  const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x32, 0x30, 0x20, 0x80])
  expect(detectEncoding(bytes).encoding).toBe('windows-1252')
  expect(decodeText(bytes)).toBe('Café – 20 €')
})

test('NUL and other control characters are removed; tabs and line breaks stay', () => {
  const bytes = new TextEncoder().encode('a\u0000b\u0007c\td\r\ne\u001bf\u007fg\u0085h')
  expect(decodeText(bytes)).toBe('abc\td\r\nefgh')
})

test('an empty file is empty text', () => {
  expect(decodeText(new Uint8Array())).toBe('')
  expect(decodeText(new Uint8Array([0xff, 0xfe]))).toBe('')
})

test('decoding in turns pauses between pieces and reads every encoding as decodeText does', async () => {
  // A three-byte character cut across the first two pieces, and a NUL to remove.
  const utf8 = new TextEncoder().encode(
    `${'a'.repeat(DECODE_PIECE_BYTES - 1)}東京\u0000 ${'b'.repeat(DECODE_PIECE_BYTES)}`,
  )
  // Valid UTF-8 for two pieces, then a Latin-1 "é" (0xe9 alone): the whole file is Windows-1252.
  const latin1 = new Uint8Array([
    ...new TextEncoder().encode('x'.repeat(2 * DECODE_PIECE_BYTES)),
    0x43,
    0x61,
    0x66,
    0xe9,
  ])
  const files = [utf8, latin1, utf16le(`Notes ${'z'.repeat(DECODE_PIECE_BYTES)} Zürich`), utf16be('short')]
  for (const bytes of files) {
    let pauses = 0
    const text = await decodeTextInTurns(bytes, async () => {
      pauses++
    })
    expect(text).toBe(decodeText(bytes))
    // At least one pause a piece (a file that is not UTF-8 after all is decoded twice).
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(bytes.length / DECODE_PIECE_BYTES))
  }
  expect((await decodeTextInTurns(latin1, async () => undefined)).endsWith('Café')).toBe(true)
})

// Real files of older Japanese, Chinese, Korean, Russian and Polish editors (made with iconv from
// the .expected.txt beside them): read as their own encoding, never as Windows-1252 mojibake.
const LEGACY = [
  ['ja.shift_jis.txt', 'shift_jis', 'ja.expected.txt'],
  ['zh.gbk.txt', 'gb18030', 'zh.expected.txt'],
  ['ko.euc-kr.txt', 'euc-kr', 'ko.expected.txt'],
  ['ru.windows-1251.txt', 'windows-1251', 'ru.expected.txt'],
  ['pl.iso-8859-2.txt', 'iso-8859-2', 'pl.expected.txt'],
] as const
const sample = (name: string) =>
  new Uint8Array(readFileSync(path.join(import.meta.dirname, 'encodings', name)))

test.each(LEGACY)('%s is read as %s', async (file, encoding, expected) => {
  const bytes = sample(file)
  const text = readFileSync(path.join(import.meta.dirname, 'encodings', expected), 'utf8')
  expect(detectEncoding(bytes).encoding).toBe(encoding)
  expect(decodeText(bytes)).toBe(text)
  expect(await decodeTextInTurns(bytes, async () => undefined)).toBe(text)
})

test('a legacy file is recognised by its first non-ASCII bytes, however long its ASCII opening', () => {
  const ascii = new TextEncoder().encode(`${'Section 1. Scope\n'.repeat(8000)}`)
  const bytes = new Uint8Array([...ascii, ...sample('ru.windows-1251.txt')])
  expect(bytes.length).toBeGreaterThan(128 * 1024)
  expect(detectEncoding(bytes).encoding).toBe('windows-1251')
})

test('Western European files with a few accents stay Windows-1252', () => {
  for (const text of [
    'naïve résumé',
    'Le café est fermé à 18 h. Réservé aux employés.',
    'Größe: 12 €. Die Prüfung findet am Montag statt; Änderungen vorbehalten.',
    'El niño comió jalapeños en la mañana — ¿por qué?',
  ]) {
    const bytes = new Uint8Array([...text].map((c) => windows1252(c)))
    expect(detectEncoding(bytes).encoding).toBe('windows-1252')
    expect(decodeText(bytes)).toBe(text)
  }
})

/** One character's Windows-1252 byte (the test's texts use only characters it has). */
function windows1252(c: string): number {
  for (let b = 0; b < 256; b++)
    if (new TextDecoder('windows-1252').decode(new Uint8Array([b])) === c) return b
  throw new Error(`not in Windows-1252: ${c}`)
}
