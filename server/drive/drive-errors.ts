/**
 * What Drive refuses, as domain errors (D108) with the sentences product §7 gives the person, and
 * Google's failures turned into them: never a 500 for Google's answer, a revoked grant forgotten
 * so the app shows "Connect". The error handler gives each its status.
 */
import type { FastifyBaseLogger } from 'fastify'
import {
  Conflict,
  DomainError,
  Forbidden,
  NotFound,
  Unavailable,
  UpstreamFailed,
} from '../http/domain-errors.ts'
import { classifyGoogleError } from './google-errors.ts'

export const DRIVE_MESSAGES = {
  notConfigured: 'Google Drive is not configured on this server.',
  notConnected: 'Google Drive is not connected. Connect it under Integrations.',
  revoked: 'Google Drive access has expired or was revoked. Reconnect Google Drive under Integrations.',
  insufficientScope:
    'DocChat may not read your Drive files. Reconnect Google Drive under Integrations and allow access to your files.',
  busy: 'Google Drive is busy right now. Try again in a minute.',
  unreachable: 'Google Drive could not be reached. Try again in a minute.',
  refused: 'Google Drive refused the request.',
  fileNotFound: 'File not found in your Google Drive.',
  ingestRunning: 'An ingest is already running',
  wrongEmail: 'The email does not match the signed-in account.',
  cannotWrite:
    'DocChat may not add files to your Drive. Reconnect Google Drive under Integrations and allow it to add files.',
} as const

export class DriveNotConfigured extends Unavailable {
  constructor() {
    super(DRIVE_MESSAGES.notConfigured)
  }
}

export class DriveNotConnected extends Conflict {
  constructor() {
    super(DRIVE_MESSAGES.notConnected)
  }
}

export class DriveAccessRevoked extends Conflict {
  constructor() {
    super(DRIVE_MESSAGES.revoked)
  }
}

/** The grant does not let DocChat add files to the person's Drive. */
export class DriveCannotWrite extends Conflict {
  constructor() {
    super(DRIVE_MESSAGES.cannotWrite)
  }
}

/** The `email` a Drive call names is not the signed-in person's. */
export class NotYourEmail extends Forbidden {
  constructor() {
    super(DRIVE_MESSAGES.wrongEmail)
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The refusal a failed Drive call answers with: ours as they are, Google's as a sentence (and a
 * revoked grant forgotten through `forget`); anything else as it was, a 500 the handler logs.
 */
export async function toDriveError(
  error: unknown,
  { userId, log, forget }: { userId: string; log: FastifyBaseLogger; forget: () => Promise<void> },
): Promise<unknown> {
  if (error instanceof DomainError) return error
  const failure = classifyGoogleError(error)
  const context = { event: 'google.drive.failed', userId, ...failure }
  switch (failure.kind) {
    case 'revoked':
      await forget()
      return new DriveAccessRevoked()
    case 'insufficient-scope':
      return new Conflict(DRIVE_MESSAGES.insufficientScope)
    case 'not-found':
      return new NotFound(DRIVE_MESSAGES.fileNotFound)
    case 'busy':
      log.warn(context, 'Google Drive stayed busy after retries')
      return new Unavailable(DRIVE_MESSAGES.busy)
    case 'unreachable':
      log.warn(context, 'Google Drive unreachable')
      return new Unavailable(DRIVE_MESSAGES.unreachable)
    case 'forbidden':
      return new Forbidden(DRIVE_MESSAGES.refused)
    case 'other':
      // Not Google's answer at all: our own fault, a 500 the error handler logs.
      if (failure.status === undefined) return error
      // Not the error itself: its request config carries headers and tokens.
      log.error({ ...context, message: errorMessage(error) }, 'Google Drive refused a request')
      return new UpstreamFailed(DRIVE_MESSAGES.refused)
  }
}
