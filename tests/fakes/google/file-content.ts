/**
 * What a stored file holds: bytes, a large body generated on the fly (so a 12 MB download never
 * sits in memory), the exports of a Docs Editors file, or nothing (folders).
 */
import { createHash } from 'node:crypto'

export type FileContent =
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'generated'; size: number; prefix: Buffer }
  | { kind: 'exports'; exports: Record<string, string | Uint8Array> }
  | { kind: 'none' }

const FILLER_BLOCK = Buffer.from(
  `${'DocChat Google emulator filler. '.repeat(2047)}\n`.padEnd(65_536, '#').slice(0, 65_536),
)

/** The bytes of a file's content, in chunks (the generated kind is never held whole). */
export function* contentChunks(content: FileContent, start = 0, end = Number.POSITIVE_INFINITY) {
  if (content.kind === 'bytes') {
    yield content.bytes.subarray(start, Math.min(end, content.bytes.length))
    return
  }
  if (content.kind !== 'generated') return
  const stop = Math.min(end, content.size)
  let offset = start
  while (offset < stop) {
    if (offset < content.prefix.length) {
      const chunk = content.prefix.subarray(offset, Math.min(stop, content.prefix.length))
      offset += chunk.length
      yield chunk
      continue
    }
    const at = (offset - content.prefix.length) % FILLER_BLOCK.length
    const chunk = FILLER_BLOCK.subarray(at, Math.min(FILLER_BLOCK.length, at + (stop - offset)))
    offset += chunk.length
    yield chunk
  }
}

export function contentSize(content: FileContent): number | undefined {
  if (content.kind === 'bytes') return content.bytes.length
  if (content.kind === 'generated') return content.size
  return undefined
}

export type Checksums = { md5: string; sha1: string; sha256: string }

export function checksums(content: FileContent): Checksums | undefined {
  if (content.kind !== 'bytes' && content.kind !== 'generated') return undefined
  const md5 = createHash('md5')
  const sha1 = createHash('sha1')
  const sha256 = createHash('sha256')
  for (const chunk of contentChunks(content)) {
    md5.update(chunk)
    sha1.update(chunk)
    sha256.update(chunk)
  }
  return { md5: md5.digest('hex'), sha1: sha1.digest('hex'), sha256: sha256.digest('hex') }
}
