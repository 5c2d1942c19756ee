/**
 * Build-time compression of the SPA: next to every text file in dist/ that compression makes
 * smaller, write `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9). The server picks one
 * by the request's Accept-Encoding (@fastify/static `preCompressed`), so it never compresses per
 * request and clients get the best ratio either algorithm can reach.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

// Source maps are left out: only developer tools fetch them, and they triple the build's work.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm)$/
/** Below this, the headers of a second file cost more than the bytes saved. */
const MIN_BYTES = 1024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesUnder(path)
    else if (entry.isFile()) yield path
  }
}

/** Writes the .br and .gz siblings; returns the files it compressed. */
export async function precompressDir(dir: string): Promise<string[]> {
  const done: string[] = []
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue
    const content = await readFile(file)
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzipAsync(content, { level: 9 }),
    ])
    // A sibling only when it is smaller: the server falls back to the plain file otherwise.
    if (br.length < content.length) await writeFile(`${file}.br`, br)
    if (gz.length < content.length) await writeFile(`${file}.gz`, gz)
    done.push(file)
  }
  return done
}

/** Vite plugin: precompress the output directory once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'docchat:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      await precompressDir(outDir)
    },
  }
}
