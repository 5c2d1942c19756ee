/**
 * One file of the build (dist/), sent as spa.ts sends index.html: the precompressed sibling the
 * request accepts (.br, then .gz, written by build/precompress.ts) with its Content-Encoding and
 * `Vary: Accept-Encoding`. Read once, on first use, and kept in memory: these are small (the
 * public page's HTML, the embed loader) and a deploy restarts the process. A missing file answers
 * as spa.ts does before a build: 404 and NOT_BUILT_MESSAGE.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { NOT_BUILT_MESSAGE } from './spa.ts'

type Variants = { identity: Buffer; br: Buffer | null; gzip: Buffer | null }

async function optional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path)
  } catch {
    return null
  }
}

export function builtFile(distDir: string, name: string, contentType: string) {
  let loaded: Promise<Variants | null> | undefined
  const load = async (): Promise<Variants | null> => {
    const path = join(distDir, name)
    const identity = await optional(path)
    if (!identity) return null
    const [br, gzip] = await Promise.all([optional(`${path}.br`), optional(`${path}.gz`)])
    return { identity, br, gzip }
  }
  return async function send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    loaded ??= load()
    const file = await loaded
    // Not built yet: tried again next time (a build may land while a dev server runs).
    if (!file) {
      loaded = undefined
      return reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE)
    }
    const accepts = String(request.headers['accept-encoding'] ?? '')
    reply.header('vary', 'Accept-Encoding').type(contentType)
    if (file.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.br)
    if (file.gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip)
    return reply.send(file.identity)
  }
}
