/**
 * Free text people type (messages, titles) is stored and shown, so characters that are not text
 * are refused at the contract: NUL (PostgreSQL cannot store it in text), the other C0 and C1
 * control characters and DEL. Tab, line feed and carriage return are text and stay.
 */
import type { z } from 'zod'

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/

export function hasNoControlCharacters(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text)
}

/** `text` without the characters userText() refuses: for text that comes from elsewhere (a model). */
export function withoutControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '')
}

export function controlCharactersMessage(field: string): string {
  return `${field} must not contain control characters (such as NUL); tabs and line breaks are fine`
}

/** `schema` refusing control characters with a message that names `field`. */
export function userText<S extends z.ZodType<string>>(schema: S, field: string) {
  return schema.refine(hasNoControlCharacters, controlCharactersMessage(field))
}
