import { expect, test, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import type { DriveFile } from '#contracts/drive.ts'
import { DOWNLOAD_ALERTS, type DownloadDeps, provideDownloadMachine } from './download-machine.ts'

const report: DriveFile = {
  id: 'file-report-0001',
  name: 'Report.pdf',
  mimeType: 'application/pdf',
  modifiedTime: '2026-03-01T10:00:00.000Z',
  webContentLink: 'https://drive.example/download/report',
  webViewLink: 'https://drive.example/view/report',
}

function fakeDeps(getFile: DownloadDeps['getFile']) {
  return {
    getFile: vi.fn(getFile),
    tabs: { open: vi.fn(), show: vi.fn(), close: vi.fn() },
    alert: vi.fn(),
    log: { error: vi.fn(), warn: vi.fn() },
  }
}

async function download(deps: DownloadDeps) {
  const actor = createActor(provideDownloadMachine(deps), {
    input: { fileId: report.id, email: 'ada@example.com', tab: 'download-1' },
  }).start()
  // The tab must open while the click is still being handled, before any await.
  expect(deps.tabs.open).toHaveBeenCalledWith('download-1')
  await toPromise(actor)
}

test('opens the direct download link when Drive gives one', async () => {
  const deps = fakeDeps(async () => report)

  await download(deps)

  expect(deps.getFile).toHaveBeenCalledWith(report.id, 'ada@example.com')
  expect(deps.tabs.show).toHaveBeenCalledWith('download-1', report.webContentLink)
  expect(deps.tabs.close).not.toHaveBeenCalled()
  expect(deps.alert).not.toHaveBeenCalled()
})

test('falls back to the viewer link (Google Docs have no download link)', async () => {
  const deps = fakeDeps(async () => ({ ...report, webContentLink: null }))

  await download(deps)

  expect(deps.tabs.show).toHaveBeenCalledWith('download-1', report.webViewLink)
})

test('with no link at all it closes the tab and says the link is not available', async () => {
  const deps = fakeDeps(async () => ({ ...report, webContentLink: null, webViewLink: null }))

  await download(deps)

  expect(deps.tabs.show).not.toHaveBeenCalled()
  expect(deps.tabs.close).toHaveBeenCalledWith('download-1')
  expect(deps.alert).toHaveBeenCalledWith(DOWNLOAD_ALERTS.noLink)
})

test('a failed call closes the tab, is logged and says the download failed', async () => {
  const deps = fakeDeps(async () => {
    throw Object.assign(new Error('Google Drive is not connected'), { status: 400 })
  })

  await download(deps)

  expect(deps.tabs.close).toHaveBeenCalledWith('download-1')
  expect(deps.alert).toHaveBeenCalledWith(DOWNLOAD_ALERTS.failed)
  expect(deps.log.error).toHaveBeenCalled()
})
