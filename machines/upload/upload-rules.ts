/**
 * The upload rules of product §5 and §9 as pure functions: PDF or plain text, at least 10KB, at most
 * 5MB. The message for the first rule a file breaks, or null when it may be uploaded.
 */
export const UPLOAD_MIN_BYTES = 10 * 1024
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024
export const UPLOAD_MIME_TYPES = ['application/pdf', 'text/plain'] as const
/** What the file picker offers (product §2: it accepts .pdf and .txt). */
export const UPLOAD_ACCEPT = '.pdf,.txt,application/pdf,text/plain'

export const UPLOAD_ERRORS = {
  type: 'Only PDF and Text files are allowed.',
  tooSmall: 'File size must be at least 10KB.',
  tooLarge: 'File size must not exceed 5MB.',
} as const

/** What the dialog knows of a chosen file: the browser's File reduced to plain facts. */
export type FileFacts = { name: string; size: number; type: string }

/**
 * Browsers leave `type` empty when the system knows no MIME type for a file; then the name's
 * extension decides, with the same two kinds the picker offers.
 */
export function isAllowedType({ name, type }: FileFacts): boolean {
  if (type !== '') return (UPLOAD_MIME_TYPES as readonly string[]).includes(type)
  return /\.(pdf|txt)$/i.test(name)
}

export function uploadError(file: FileFacts): string | null {
  if (!isAllowedType(file)) return UPLOAD_ERRORS.type
  if (file.size < UPLOAD_MIN_BYTES) return UPLOAD_ERRORS.tooSmall
  if (file.size > UPLOAD_MAX_BYTES) return UPLOAD_ERRORS.tooLarge
  return null
}
