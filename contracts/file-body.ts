/**
 * The body of a `file` call (contracts/endpoint.ts' kind `file`): bytes, not JSON. Its own file,
 * so the /login bundle, which carries endpoint.ts, does not.
 */
import { z } from 'zod'

export const FileBodySchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array)
