import { expect, type Mock, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { DRIVE_CONNECTED_MESSAGE, type DriveFile, type IngestReport } from '#contracts/drive.ts'
import { DOWNLOAD_ALERTS } from './download-machine.ts'
import { provideDriveMachine } from './drive-machine.ts'
import { DRIVE_MESSAGES, type DriveDeps, type WindowMessage } from './drive-types.ts'

const email = 'ada@example.com'
const origin = 'https://docchat.example'

const report: DriveFile = {
  id: 'file-report-0001',
  name: 'Report.pdf',
  mimeType: 'application/pdf',
  modifiedTime: '2026-03-01T10:00:00.000Z',
  webContentLink: 'https://drive.example/download/report',
  webViewLink: 'https://drive.example/view/report',
}

const ingestReport: IngestReport = {
  message: 'Ingested 1 document: 1 added.',
  added: ['Report.pdf'],
  updated: [],
  unchanged: [],
  removed: [],
  skipped: [],
  failed: [],
}

function httpError(status: number, message: string) {
  return Object.assign(new Error(message), { status })
}

type CallOverrides = Partial<{
  listFiles: Mock<DriveDeps['listFiles']>
  ingestDocuments: Mock<DriveDeps['ingestDocuments']>
  driveConfigured: Mock<DriveDeps['driveConfigured']>
  getFile: Mock<DriveDeps['getFile']>
}>

function fakeDeps(overrides: CallOverrides = {}) {
  const listeners = new Set<(message: WindowMessage) => void>()
  const deps = {
    listFiles: vi.fn<DriveDeps['listFiles']>().mockResolvedValue([report]),
    driveConfigured: vi.fn<DriveDeps['driveConfigured']>().mockResolvedValue(true),
    ingestDocuments: vi.fn<DriveDeps['ingestDocuments']>().mockResolvedValue(ingestReport),
    disconnect: vi.fn<DriveDeps['disconnect']>().mockResolvedValue({ removedDocuments: 0 }),
    getFile: vi.fn<DriveDeps['getFile']>().mockResolvedValue(report),
    openConnectWindow: vi.fn(),
    onWindowMessage: vi.fn((listener: (message: WindowMessage) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }),
    tabs: { open: vi.fn(), show: vi.fn(), close: vi.fn() },
    alert: vi.fn(),
    log: { error: vi.fn(), warn: vi.fn() },
    ...overrides,
  }
  /** What a window.postMessage to this page looks like to the machine. */
  const post = (message: WindowMessage) => {
    for (const listener of listeners) listener(message)
  }
  return { deps, post, listeners }
}

function startDrive(deps: DriveDeps) {
  return createActor(provideDriveMachine(deps), { input: { email, origin } }).start()
}

type Drive = ReturnType<typeof startDrive>

const listed = (drive: Drive) => waitFor(drive, (s) => !s.hasTag('listing') && s.context.files !== null)
const settled = (drive: Drive) => waitFor(drive, (s) => !s.hasTag('listing') && !s.hasTag('ingesting'))

test("lists nothing until asked, then lists the signed-in user's files and marks Drive connected", async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)
  expect(deps.listFiles).not.toHaveBeenCalled()
  expect(drive.getSnapshot().context.connected).toBe(false)

  drive.send({ type: 'drive.list' })
  const snapshot = await listed(drive)

  expect(deps.listFiles).toHaveBeenCalledWith(email)
  expect(snapshot.context.files).toEqual([report])
  expect(snapshot.context.connected).toBe(true)
  expect(snapshot.context.loadFailure).toBeNull()
})

test('a failed listing marks Drive not connected, keeps the server reason for a 4xx and logs', async () => {
  const { deps } = fakeDeps({
    listFiles: vi.fn().mockRejectedValue(httpError(400, 'Google Drive is not connected')),
  })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.list' })
  const snapshot = await settled(drive)

  expect(snapshot.context.connected).toBe(false)
  expect(snapshot.context.files).toBeNull()
  expect(snapshot.context.loadFailure).toEqual({ reason: 'Google Drive is not connected' })
  expect(deps.log.error).toHaveBeenCalled()
})

test('a server error or an unreachable server gives no reason to show', async () => {
  for (const error of [httpError(500, 'Internal Server Error'), httpError(0, 'Failed to fetch')]) {
    const { deps } = fakeDeps({ listFiles: vi.fn().mockRejectedValue(error) })
    const drive = startDrive(deps)

    drive.send({ type: 'drive.list' })

    expect((await settled(drive)).context.loadFailure).toEqual({ reason: null })
  }
})

test('connected flips back to false when a later listing fails', async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })
  await listed(drive)

  deps.listFiles.mockRejectedValueOnce(httpError(401, 'Google Drive access was revoked'))
  drive.send({ type: 'drive.list' })

  expect((await settled(drive)).context.connected).toBe(false)
})

test('asking again while a listing is under way makes no second call', async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)

  drive.send({ type: 'drive.list' })
  drive.send({ type: 'drive.list' })
  await listed(drive)

  expect(deps.listFiles).toHaveBeenCalledTimes(1)
})

test('ingest is busy, then shows the server message, then reloads the list', async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })
  await listed(drive)

  const reload = Promise.withResolvers<DriveFile[]>()
  deps.listFiles.mockReturnValueOnce(reload.promise)

  drive.send({ type: 'drive.ingest' })
  expect(drive.getSnapshot().hasTag('ingesting')).toBe(true)
  expect(deps.ingestDocuments).toHaveBeenCalledWith(email)
  const afterIngest = await waitFor(drive, (s) => !s.hasTag('ingesting'))

  expect(afterIngest.context.ingestOutcome).toEqual({ kind: 'done', message: ingestReport.message })
  expect(afterIngest.hasTag('listing')).toBe(true)
  expect(deps.listFiles).toHaveBeenCalledTimes(2)
  reload.resolve([])
  expect((await listed(drive)).context.files).toEqual([])
})

test('an ingest with an empty server message says "Documents ingested successfully"', async () => {
  const { deps } = fakeDeps({
    ingestDocuments: vi.fn().mockResolvedValue({ ...ingestReport, message: '  ' }),
  })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.ingest' })
  await settled(drive)

  expect(drive.getSnapshot().context.ingestOutcome).toEqual({
    kind: 'done',
    message: DRIVE_MESSAGES.ingested,
  })
})

test('a failed ingest says "Failed to ingest documents", logs, and does not reload', async () => {
  const { deps } = fakeDeps({ ingestDocuments: vi.fn().mockRejectedValue(httpError(500, 'boom')) })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.ingest' })
  const snapshot = await settled(drive)

  expect(snapshot.context.ingestOutcome).toEqual({ kind: 'failed', message: DRIVE_MESSAGES.ingestFailed })
  expect(deps.log.error).toHaveBeenCalled()
  expect(deps.listFiles).not.toHaveBeenCalled()
})

test('an ingest already running on the server shows the server sentence instead', async () => {
  const { deps } = fakeDeps({
    ingestDocuments: vi.fn().mockRejectedValue(httpError(409, 'An ingest is already running')),
  })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.ingest' })

  expect((await settled(drive)).context.ingestOutcome).toEqual({
    kind: 'running',
    message: 'An ingest is already running',
  })
})

test('an ingest tells when it starts and when it ends, whether it was done or failed', async () => {
  const { deps } = fakeDeps()
  deps.ingestDocuments.mockRejectedValueOnce(httpError(500, 'boom'))
  const drive = startDrive(deps)
  const told: string[] = []
  drive.on('drive.ingestStarted', (event) => told.push(event.type))
  drive.on('drive.ingestFinished', (event) => told.push(event.type))

  drive.send({ type: 'drive.ingest' })
  await settled(drive)
  drive.send({ type: 'drive.ingest' })
  await settled(drive)

  expect(told).toEqual([
    'drive.ingestStarted',
    'drive.ingestFinished',
    'drive.ingestStarted',
    'drive.ingestFinished',
  ])
})

test('a new ingest clears the previous message while it runs', async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)
  drive.send({ type: 'drive.ingest' })
  await settled(drive)

  drive.send({ type: 'drive.ingest' })

  expect(drive.getSnapshot().context.ingestOutcome).toBeNull()
})

test('a download opens its tab within the click, then sends it to the file link', async () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)

  drive.send({ type: 'drive.download', fileId: report.id })
  expect(deps.tabs.open).toHaveBeenCalledTimes(1)

  await vi.waitFor(() => expect(deps.tabs.show).toHaveBeenCalledWith('download-1', report.webContentLink))
  expect(deps.getFile).toHaveBeenCalledWith(report.id, email)
})

test('two downloads at once each get their own tab', async () => {
  const { deps } = fakeDeps({
    getFile: vi.fn(async (fileId: string) => ({
      ...report,
      id: fileId,
      webContentLink: `https://x/${fileId}`,
    })),
  })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.download', fileId: 'file-a-000001' })
  drive.send({ type: 'drive.download', fileId: 'file-b-000002' })

  await vi.waitFor(() => expect(deps.tabs.show).toHaveBeenCalledTimes(2))
  expect(deps.tabs.show).toHaveBeenCalledWith('download-1', 'https://x/file-a-000001')
  expect(deps.tabs.show).toHaveBeenCalledWith('download-2', 'https://x/file-b-000002')
})

test('a download with no link alerts through the drive machine too', async () => {
  const { deps } = fakeDeps({
    getFile: vi.fn().mockResolvedValue({ ...report, webContentLink: null, webViewLink: null }),
  })
  const drive = startDrive(deps)

  drive.send({ type: 'drive.download', fileId: report.id })

  await vi.waitFor(() => expect(deps.alert).toHaveBeenCalledWith(DOWNLOAD_ALERTS.noLink))
  expect(deps.tabs.close).toHaveBeenCalledWith('download-1')
})

test('Connect opens the connect window', () => {
  const { deps } = fakeDeps()
  const drive = startDrive(deps)

  drive.send({ type: 'drive.connect' })

  expect(deps.openConnectWindow).toHaveBeenCalledTimes(1)
})

test('the connected message from this origin reloads the list, which marks Drive connected', async () => {
  const { deps, post } = fakeDeps({
    listFiles: vi.fn().mockRejectedValueOnce(httpError(400, 'Google Drive is not connected')),
  })
  deps.listFiles.mockResolvedValue([report])
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })
  await settled(drive)
  expect(drive.getSnapshot().context.connected).toBe(false)

  post({ origin, data: DRIVE_CONNECTED_MESSAGE })

  expect((await listed(drive)).context.connected).toBe(true)
  expect(deps.listFiles).toHaveBeenCalledTimes(2)
})

test('the connected message restarts a listing already under way', async () => {
  const first = Promise.withResolvers<DriveFile[]>()
  const { deps, post } = fakeDeps({ listFiles: vi.fn().mockReturnValueOnce(first.promise) })
  deps.listFiles.mockResolvedValue([report])
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })

  post({ origin, data: DRIVE_CONNECTED_MESSAGE })
  first.reject(httpError(400, 'Google Drive is not connected'))

  const snapshot = await listed(drive)
  expect(deps.listFiles).toHaveBeenCalledTimes(2)
  expect(snapshot.context.connected).toBe(true)
})

test('messages from another origin, or other messages, are ignored', async () => {
  const { deps, post } = fakeDeps()
  startDrive(deps)

  post({ origin: 'https://evil.example', data: DRIVE_CONNECTED_MESSAGE })
  post({ origin, data: 'something else' })
  post({ origin, data: { type: DRIVE_CONNECTED_MESSAGE } })
  await Promise.resolve()

  expect(deps.listFiles).not.toHaveBeenCalled()
})

test('stopping the machine stops listening to window messages', () => {
  const { deps, listeners } = fakeDeps()
  const drive = startDrive(deps)
  expect(listeners.size).toBe(1)

  drive.stop()

  expect(listeners.size).toBe(0)
})

test('Disconnect asks first; choosing keep or remove disconnects, forgets the files and lists again', async () => {
  const { deps } = fakeDeps()
  const drive = createActor(provideDriveMachine(deps), { input: { email, origin } }).start()
  drive.send({ type: 'drive.list' })
  await waitFor(drive, (s) => s.context.connected)

  drive.send({ type: 'drive.disconnectAsk' })
  expect(drive.getSnapshot().hasTag('confirmingDisconnect')).toBe(true)
  drive.send({ type: 'drive.disconnectCancel' })
  expect(drive.getSnapshot().hasTag('confirmingDisconnect')).toBe(false)
  expect(deps.disconnect).not.toHaveBeenCalled()

  deps.listFiles.mockRejectedValue(
    httpError(409, 'Google Drive is not connected. Connect it under Integrations.'),
  )
  drive.send({ type: 'drive.disconnectAsk' })
  drive.send({ type: 'drive.disconnect', documents: 'remove' })
  await waitFor(drive, (s) => !s.hasTag('disconnecting') && s.matches({ files: 'failed' }))

  expect(deps.disconnect).toHaveBeenCalledWith('remove')
  expect(drive.getSnapshot().context.connected).toBe(false)
  expect(drive.getSnapshot().context.disconnectFailure).toBeNull()
})

test('a failed disconnect says so and keeps the connection', async () => {
  const { deps } = fakeDeps()
  deps.disconnect.mockRejectedValue(new Error('down'))
  const drive = createActor(provideDriveMachine(deps), { input: { email, origin } }).start()
  drive.send({ type: 'drive.list' })
  await waitFor(drive, (s) => s.context.connected)

  drive.send({ type: 'drive.disconnectAsk' })
  drive.send({ type: 'drive.disconnect', documents: 'keep' })
  await waitFor(drive, (s) => s.context.disconnectFailure !== null)

  expect(drive.getSnapshot().context.disconnectFailure).toBe(DRIVE_MESSAGES.disconnectFailed)
  expect(drive.getSnapshot().context.connected).toBe(true)
})

test('a server without Google (503, options say no Google) leaves Drive unavailable, not failed, and lists no more', async () => {
  const { deps } = fakeDeps({
    listFiles: vi
      .fn<DriveDeps['listFiles']>()
      .mockRejectedValue(httpError(503, 'Google Drive is not configured on this server.')),
    driveConfigured: vi.fn<DriveDeps['driveConfigured']>().mockResolvedValue(false),
  })
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })
  const snapshot = await waitFor(drive, (s) => !s.hasTag('listing'))
  expect(snapshot.hasTag('unavailable')).toBe(true)
  expect(snapshot.context).toMatchObject({ configured: false, loadFailure: null, connected: false })
  expect(deps.log.error).not.toHaveBeenCalled()

  drive.send({ type: 'drive.list' })
  expect(deps.listFiles).toHaveBeenCalledTimes(1)
})

test('a 503 from a server with Google (Drive busy) is a failure with its sentence', async () => {
  const { deps } = fakeDeps({
    listFiles: vi
      .fn<DriveDeps['listFiles']>()
      .mockRejectedValue(httpError(503, 'Google Drive is busy right now. Try again in a minute.')),
  })
  const drive = startDrive(deps)
  drive.send({ type: 'drive.list' })
  const snapshot = await waitFor(drive, (s) => !s.hasTag('listing'))
  expect(snapshot.hasTag('unavailable')).toBe(false)
  expect(snapshot.context.loadFailure).toEqual({ reason: null })
  expect(snapshot.context.configured).toBe(true)
})
