/**
 * The bytes of a text file as the text a person reads, whatever editor saved it: UTF-8 (with or
 * without a byte-order mark), UTF-16 with a byte-order mark (Windows Notepad's "Unicode"), UTF-16
 * without one when its zero bytes give it away, and anything else in the legacy encoding chardet
 * recognises when it is sure (Shift-JIS, GBK/GB18030, EUC-KR, Big5, Windows-1251, ISO-8859-2…:
 * older Japanese, Chinese, Korean, Russian and Polish files), else as Latin-1 (Windows-1252, the
 * WHATWG reading of "latin1", of which ISO-8859-1's printable characters are a subset). Control
 * characters other than tab and line breaks are removed: PostgreSQL refuses a NUL in text, and
 * the others only garble passages.
 */

import chardet from 'chardet'

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const

/** 'utf-8', 'utf-16le', 'utf-16be', 'windows-1252', or a legacy encoding's WHATWG label ('shift_jis'…). */
export type TextEncodingName = string

/** How much of a file chardet reads: its statistics settle well within this, and it costs ~1 ms. */
const LEGACY_SAMPLE_BYTES = 64 * 1024
/** chardet's confidence (0–100) a legacy guess needs, and its lead over the Latin-1 family's best. */
const LEGACY_CONFIDENCE = 30
const LEGACY_LEAD = 10
/** chardet's names for what Windows-1252 decodes (ISO-8859-1's printable characters are its subset). */
const LATIN1_FAMILY = new Set(['windows-1252', 'iso-8859-1', 'iso-8859-15', 'ascii'])

/**
 * The legacy encoding of bytes that are not UTF-8: chardet's best guess when it is confident and
 * clearly ahead of Windows-1252 (so a French or German file with a few accents, which chardet may
 * call Turkish or Central European at low confidence, stays Windows-1252); a guess TextDecoder
 * cannot decode is ignored.
 */
export function legacyEncoding(bytes: Uint8Array): TextEncodingName {
  // From the first byte that is not ASCII (a multi-byte character's first byte): ASCII before it
  // says nothing of the encoding and sways chardet's statistics towards Latin-1.
  const from = Math.max(
    0,
    bytes.findIndex((b) => b >= 0x80),
  )
  const guesses = chardet.analyse(bytes.subarray(from, from + LEGACY_SAMPLE_BYTES))
  const latin1 = Math.max(
    0,
    ...guesses.filter((g) => LATIN1_FAMILY.has(g.name.toLowerCase())).map((g) => g.confidence),
  )
  const best = guesses.find((g) => !g.name.toLowerCase().startsWith('utf'))
  if (!best || LATIN1_FAMILY.has(best.name.toLowerCase())) return 'windows-1252'
  if (best.confidence < LEGACY_CONFIDENCE || best.confidence - latin1 < LEGACY_LEAD) return 'windows-1252'
  try {
    return new TextDecoder(best.name).encoding
  } catch {
    return 'windows-1252'
  }
}

/** C0 controls except \t \n \r, DEL, C1 controls, and the non-characters a bad decode leaves. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte)
}

/**
 * UTF-16 without a byte-order mark: mostly-ASCII text in UTF-16 has a zero in every other byte.
 * Looks at the first 4 KiB; null when neither half is at least 40 % zeros.
 */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const sample = Math.min(bytes.length - (bytes.length % 2), 4096)
  if (sample < 4) return null
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) evenZeros++
    if (bytes[i + 1] === 0) oddZeros++
  }
  const pairs = sample / 2
  if (oddZeros >= 0.4 * pairs && evenZeros < 0.1 * pairs) return 'utf-16le'
  if (evenZeros >= 0.4 * pairs && oddZeros < 0.1 * pairs) return 'utf-16be'
  return null
}

/** Which encoding `decodeText` reads `bytes` as, and where the text starts (after a BOM). */
export function detectEncoding(bytes: Uint8Array): { encoding: TextEncodingName; offset: number } {
  if (startsWith(bytes, UTF8_BOM)) return { encoding: 'utf-8', offset: 3 }
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', offset: 2 }
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', offset: 2 }
  const utf16 = utf16WithoutBom(bytes)
  if (utf16) return { encoding: utf16, offset: 0 }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return { encoding: 'utf-8', offset: 0 }
  } catch {
    return { encoding: legacyEncoding(bytes), offset: 0 }
  }
}

/** Removes NUL and the other control characters (tab, line feed and carriage return stay). */
export function removeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '')
}

/** The file's text: decoded as detectEncoding says, byte-order mark and control characters removed. */
export function decodeText(bytes: Uint8Array): string {
  return readText(bytes).text
}

/** decodeText, saying which encoding it read the file as. */
export function readText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const { encoding, offset } = detectEncoding(bytes)
  // ignoreBOM: the mark was already stepped over; a second one would be text (and is removed below).
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(offset))
  return { text: removeControlCharacters(text.replace(/^\uFEFF/, '')), encoding }
}

/** The bytes decodeTextInTurns decodes between two pauses. */
export const DECODE_PIECE_BYTES = 256 * 1024

/**
 * decodeText on the server's thread, DECODE_PIECE_BYTES at a time, calling `pause` between pieces
 * (turns.ts): a 5 MB file was one piece of 20-200 ms (a UTF-8 check, the decoding and the control
 * characters' removal, each over the whole file). Plain UTF-8 is checked and decoded in one pass;
 * a file that turns out not to be is decoded again in its legacy encoding, as decodeText would.
 */
export async function decodeTextInTurns(bytes: Uint8Array, pause: () => Promise<void>): Promise<string> {
  return (await readTextInTurns(bytes, pause)).text
}

/** decodeTextInTurns, saying which encoding it read the file as. */
export async function readTextInTurns(
  bytes: Uint8Array,
  pause: () => Promise<void>,
): Promise<{ text: string; encoding: TextEncodingName }> {
  const { encoding, offset } = sniffEncoding(bytes)
  if (encoding !== null) return { text: await decodePieces(bytes, encoding, offset, pause), encoding }
  try {
    return { text: await decodePieces(bytes, 'utf-8', 0, pause, { fatal: true }), encoding: 'utf-8' }
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    const legacy = legacyEncoding(bytes)
    return { text: await decodePieces(bytes, legacy, 0, pause), encoding: legacy }
  }
}

/** The names people know legacy encodings by (TextDecoder's labels otherwise, upper-cased). */
const ENCODING_NAMES: Record<string, string> = {
  'windows-1252': 'Windows-1252 (Western European)',
  shift_jis: 'Shift-JIS (Japanese)',
  'euc-jp': 'EUC-JP (Japanese)',
  gbk: 'GBK (Chinese)',
  gb18030: 'GBK/GB18030 (Chinese)',
  big5: 'Big5 (Traditional Chinese)',
  'euc-kr': 'EUC-KR (Korean)',
  'windows-1251': 'Windows-1251 (Cyrillic)',
  'koi8-r': 'KOI8-R (Russian)',
  'iso-8859-2': 'ISO-8859-2 (Central European)',
  'windows-1250': 'Windows-1250 (Central European)',
}

/**
 * What the library says of a text file not in Unicode (shown beside "Ready"), so a person who
 * sees odd characters knows how it was read; null for UTF-8 and UTF-16.
 */
export function encodingNote(encoding: TextEncodingName): string | null {
  if (encoding.startsWith('utf-')) return null
  return `text read as ${ENCODING_NAMES[encoding] ?? encoding.toUpperCase()}`
}

/** detectEncoding without its UTF-8 check: null when only decoding can tell UTF-8 from Latin-1. */
function sniffEncoding(bytes: Uint8Array): { encoding: TextEncodingName | null; offset: number } {
  if (startsWith(bytes, UTF8_BOM)) return { encoding: 'utf-8', offset: 3 }
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', offset: 2 }
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', offset: 2 }
  return { encoding: utf16WithoutBom(bytes), offset: 0 }
}

async function decodePieces(
  bytes: Uint8Array,
  encoding: TextEncodingName,
  offset: number,
  pause: () => Promise<void>,
  { fatal = false } = {},
): Promise<string> {
  const decoder = new TextDecoder(encoding, { ignoreBOM: true, fatal })
  const pieces: string[] = []
  for (let at = offset; at < bytes.length; at += DECODE_PIECE_BYTES) {
    // stream: a character cut between two pieces is decoded whole with the next.
    pieces.push(
      removeControlCharacters(decoder.decode(bytes.subarray(at, at + DECODE_PIECE_BYTES), { stream: true })),
    )
    await pause()
  }
  pieces.push(removeControlCharacters(decoder.decode()))
  return pieces.join('').replace(/^\uFEFF/, '')
}
