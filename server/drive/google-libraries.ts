/**
 * The Google client libraries (google-auth-library, @googleapis/drive), loaded on the first OAuth
 * or Drive call instead of at start: together they are a large share of the server's start-up
 * time and idle memory, and many installations never connect a Drive (D53). Loaded with
 * a synchronous require so the call sites stay as they were; the first Drive or OAuth call of a
 * process pays the load once.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

type GoogleAuthLibrary = typeof import('google-auth-library')
type DriveLibrary = typeof import('@googleapis/drive')

let authLibrary: GoogleAuthLibrary | undefined
let driveLibrary: DriveLibrary | undefined

export function googleAuth(): GoogleAuthLibrary {
  authLibrary ??= require('google-auth-library') as GoogleAuthLibrary
  return authLibrary
}

export function googleDrive(): DriveLibrary {
  driveLibrary ??= require('@googleapis/drive') as DriveLibrary
  return driveLibrary
}

/** Whether the libraries have been loaded (tests and the footprint check that start-up does not). */
export function googleLibrariesLoaded(): boolean {
  return authLibrary !== undefined || driveLibrary !== undefined
}

/**
 * An error thrown by a Google client (a GaxiosError). Before the libraries are loaded no call has
 * been made, so nothing can be one.
 */
export function isGaxiosError(error: unknown): error is import('google-auth-library').gaxios.GaxiosError {
  return authLibrary !== undefined && error instanceof authLibrary.gaxios.GaxiosError
}
