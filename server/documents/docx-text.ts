/**
 * The text of a Word (.docx) file, through mammoth (a kept, pure-JavaScript converter), loaded on
 * the first Word file so a server that never meets one never pays for it. Paragraphs come out
 * separated by blank lines, which the chunker splits on; a file that is not a readable .docx fails
 * alone with a reason a person can read.
 */
import { removeControlCharacters } from './text-decoding.ts'

export class DocxTextError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DocxTextError'
  }
}

export async function docxText(bytes: Uint8Array): Promise<string> {
  const { default: mammoth } = await import('mammoth')
  let value: string
  try {
    ;({ value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) }))
  } catch {
    throw new DocxTextError('the file is not a readable Word document')
  }
  const text = removeControlCharacters(value)
  if (text.trim() === '') throw new DocxTextError('the Word document has no text to read')
  return text
}
