/**
 * The drive machine's data: its input, context, events, injected effects, and how a failed call
 * becomes the sentence a person reads (product §8).
 */
import type { DriveFile, IngestReport } from '#contracts/drive.ts'
import { type Logger, messageOf, statusOf } from '#machines/shared/effects.ts'
import type { DownloadDeps } from './download-machine.ts'

/** product §8, word for word, plus the sentence for an ingest the server says is already running. */
export const DRIVE_MESSAGES = {
  ingested: 'Documents ingested successfully',
  ingestFailed: 'Failed to ingest documents',
  ingestRunning: 'An ingest is already running',
  disconnectFailed: 'Could not disconnect Google Drive. Try again.',
} as const

/** The signed-in user's email (the calls send it, product §7) and this app's origin (postMessage check). */
export type DriveInput = { email: string; origin: string }

/** 'running': the server refused a second ingest (409); nothing failed, so the view says it calmly. */
export type IngestOutcome = { kind: 'done' | 'running' | 'failed'; message: string }

export type DriveContext = DriveInput & {
  /** null until a listing succeeds, and again after one fails. */
  files: DriveFile[] | null
  /** product §4: true after a successful listing, false after a failed one. */
  connected: boolean
  /** Set when the last listing failed; `reason` is the server's sentence for a 4xx. */
  loadFailure: { reason: string | null } | null
  /** false once the server said it has no Google OAuth client (D133): Drive can never work here. */
  configured: boolean
  ingestOutcome: IngestOutcome | null
  /** Set when disconnecting failed: the sentence to show on the Integrations card. */
  disconnectFailure: string | null
  /** Numbers the download tabs. */
  downloads: number
}

export type DriveEvent =
  | { type: 'drive.list' }
  | { type: 'drive.ingest' }
  | { type: 'drive.download'; fileId: string }
  | { type: 'drive.connect' }
  /** Integrations: ask whether to keep the Drive documents, then disconnect (or cancel). */
  | { type: 'drive.disconnectAsk' }
  | { type: 'drive.disconnectCancel' }
  | { type: 'drive.disconnect'; documents: 'keep' | 'remove' }
  /** A message posted to this window (the connect window's callback page posts one). */
  | { type: 'drive.messageReceived'; origin: string; data: unknown }

/** What the drive tells the dashboard (D112): an ingest began, and it ended (done or failed). */
export type DriveEmitted = { type: 'drive.ingestStarted' } | { type: 'drive.ingestFinished' }

export type WindowMessage = { origin: string; data: unknown }

export type DriveDeps = DownloadDeps & {
  listFiles: (email: string) => Promise<DriveFile[]>
  /** Whether this server has a Google OAuth client (GET /auth/options `google`). */
  driveConfigured: () => Promise<boolean>
  ingestDocuments: (email: string) => Promise<IngestReport>
  disconnect: (documents: 'keep' | 'remove') => Promise<unknown>
  openConnectWindow: () => void
  /** Subscribes to messages posted to this window; returns the unsubscribe. */
  onWindowMessage: (listener: (message: WindowMessage) => void) => () => void
  log: Logger
}

/** A 4xx carries a sentence meant for people ("Google Drive is not connected…"); other failures don't. */
export function listFailureReason(error: unknown): string | null {
  const status = statusOf(error)
  if (status === undefined || status < 400 || status >= 500) return null
  return messageOf(error) ?? null
}

export function ingestFailureOutcome(error: unknown): IngestOutcome {
  if (statusOf(error) === 409) {
    return { kind: 'running', message: messageOf(error) ?? DRIVE_MESSAGES.ingestRunning }
  }
  return { kind: 'failed', message: DRIVE_MESSAGES.ingestFailed }
}
